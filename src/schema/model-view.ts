/**
 * Session.modelView: exactly what the next model call would send — the same
 * `buildPrompt` the turn runner sends with (system prompt, allowlisted records,
 * upload and image notices, tool-result cap and per-message cuts, the images
 * that are sent) — with images as references, never bytes. Session.contextTokens
 * reports the same prompt's estimate.
 */
import { can } from '../domain/policy.js';
import type { PromptImage, PromptMessage } from '../domain/prompt.js';
import { Forbidden, NotFound } from '../store/errors.js';
import { builder } from './builder.js';
import { MessageRoleEnum, ToolCallRef } from './message.js';
import { nextPromptOf } from './next-prompt.js';
import { SessionRef } from './session.js';

const ModelViewImageRef = builder.objectRef<PromptImage>('ModelViewImage').implement({
  description: 'An image the call sends, by reference (its bytes are not returned).',
  fields: (t) => ({
    path: t.exposeString('path', { description: 'stored path, or the path image_view opened' }),
    name: t.string({ resolve: (i) => i.path.slice(i.path.lastIndexOf('/') + 1) }),
    bytes: t.exposeInt('bytes', { description: 'decoded size in bytes' }),
    tokens: t.exposeInt('tokens', { description: 'estimated prompt tokens (from the image header)' }),
  }),
});

const ModelViewMessageRef = builder.objectRef<PromptMessage>('ModelViewMessage').implement({
  fields: (t) => ({
    role: t.field({ type: MessageRoleEnum, resolve: (m) => m.role.toUpperCase() as 'USER' }),
    content: t.exposeString('content', { description: 'the text as sent: notices appended, cut where the view cuts' }),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (m) => m.toolCalls }),
    toolCallId: t.exposeString('toolCallId', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    images: t.field({ type: [ModelViewImageRef], resolve: (m) => m.images }),
    sequenceNumber: t.int({
      nullable: true,
      description: 'the stored message it comes from; null for the injected system prompt',
      resolve: (m) => (m.sequenceNumber >= 0 ? m.sequenceNumber : null),
    }),
  }),
});

interface ModelViewShape {
  messages: PromptMessage[];
  estimatedTokens: number;
  contextWindow: number;
  profileId: string;
  model: string;
}

const ModelViewRef = builder.objectRef<ModelViewShape>('ModelView').implement({
  description: 'What the next model call sends (before the next request and its recall, which a turn adds).',
  fields: (t) => ({
    messages: t.field({ type: [ModelViewMessageRef], resolve: (v) => v.messages }),
    estimatedTokens: t.exposeInt('estimatedTokens', {
      description: 'the last real prompt count + the calibrated delta since (= Session.contextTokens)',
    }),
    contextWindow: t.exposeInt('contextWindow'),
    model: t.exposeString('model'),
    profile: t.prismaField({
      type: 'Profile',
      resolve: async (query, v, _a, ctx) => {
        const profile = await ctx.app.reads.profile(v.profileId, query);
        if (!profile) throw new NotFound('Profile');
        return profile;
      },
    }),
  }),
});

builder.prismaObjectField(SessionRef, 'modelView', (t) =>
  t.field({
    type: ModelViewRef,
    description:
      'Exactly what the next model call would send, built by the function the turn runner uses (owner or admin only).',
    select: { id: true, userId: true },
    resolve: async (s, _a, ctx) => {
      if (!can(ctx.viewer, 'readContext', s)) {
        throw new Forbidden('Only the owner or an admin may read what the model sees');
      }
      const loaded = await nextPromptOf(ctx, s.id);
      if (!loaded) throw new Forbidden('Only the owner or an admin may read what the model sees');
      return {
        messages: loaded.prompt.messages,
        estimatedTokens: loaded.prompt.estimate,
        contextWindow: loaded.window,
        profileId: loaded.profile.id,
        model: loaded.profile.model,
      };
    },
  }),
);
