/**
 * "What the model sees": Session.modelView, the exact next prompt (system
 * prompt, notices, cuts, images by reference), loaded when the panel opens,
 * and below it the last turn's model calls (Turn.calls: src/call-manifest.ts).
 */
import { gql } from './api.js';
import { loadLastTurnCalls, renderCalls } from './call-manifest.js';
import { h } from './dom.js';
import { MODEL_VIEW, type ModelViewData } from './queries.js';

export function modelViewPanel(sessionId: () => string | null, onError: (error: unknown) => void) {
  const summary = h('summary', { text: 'What the model sees' });
  const body = h('div', { class: 'model-view-body' });
  const element = h('details', { class: 'model-view' }, summary, body);
  const load = async () => {
    const id = sessionId();
    if (!id) return;
    body.replaceChildren(h('p', { text: 'Loading…' }));
    try {
      const [data, last] = await Promise.all([
        gql<{ session: { modelView: ModelViewData } | null }>(MODEL_VIEW, { id }),
        loadLastTurnCalls(id).catch(() => null),
      ]);
      if (sessionId() !== id || !data.session) return;
      render(data.session.modelView);
      if (last)
        body.append(
          h('h4', { class: 'model-calls-title', text: "The last turn's model calls" }),
          renderCalls(last.calls),
        );
    } catch (error) {
      body.replaceChildren();
      onError(error);
    }
  };
  const render = (view: ModelViewData) => {
    body.replaceChildren(
      h('p', {
        class: 'model-view-total',
        text:
          `${view.messages.length} messages · ~${view.estimatedTokens.toLocaleString()}` +
          ` / ${view.contextWindow.toLocaleString()} tokens` +
          ` · ${view.profile.name} (${view.model})`,
      }),
      h(
        'ol',
        { class: 'model-view-messages' },
        ...view.messages.map((m) =>
          h(
            'li',
            { class: `model-view-message role-${m.role.toLowerCase()}` },
            h('strong', {
              text:
                m.role.toLowerCase() +
                (m.name ? ` (${m.name})` : '') +
                (m.sequenceNumber === null ? ' · injected' : ` · #${m.sequenceNumber}`),
            }),
            h('pre', { text: m.content }),
            ...m.toolCalls.map((c) =>
              h('pre', { class: 'tool-call', text: `call ${c.name}(${JSON.stringify(c.arguments)})` }),
            ),
            ...m.images.map((i) =>
              h('p', {
                class: 'image-ref',
                text: `image ${i.name} · ${i.bytes.toLocaleString()} bytes · ~${i.tokens.toLocaleString()} tokens`,
              }),
            ),
          ),
        ),
      ),
    );
  };
  element.addEventListener('toggle', () => element.open && void load());
  return {
    element,
    /** the prompt changed (a turn ended, the meter moved): an open panel reloads */
    refresh: () => {
      if (element.open) void load();
    },
    /** another conversation opened (or none): closed and empty until asked again */
    reset: () => {
      element.open = false;
      body.replaceChildren();
    },
  };
}
