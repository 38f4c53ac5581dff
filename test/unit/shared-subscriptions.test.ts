import {
  GraphQLError,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type ExecutionResult,
} from 'graphql';
import { MessageType, stringifyMessage } from 'graphql-ws';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { nextFrame, useSharedSubscriptionExecution } from '../../src/shared-subscriptions.js';

interface Ctx {
  viewer: string | null;
}
type Listener = (event: { text: string }) => void;

/** A tiny schema: one event type with a viewer-dependent field and an argument-dependent field that can fail. */
function setup(shareable?: (event: unknown) => boolean) {
  const listeners = new Set<Listener>();
  const Event = new GraphQLObjectType<{ text: string }, Ctx>({
    name: 'Event',
    fields: {
      text: { type: GraphQLString },
      viewer: { type: GraphQLString, resolve: (_e, _a, ctx) => ctx.viewer },
      repeat: {
        type: GraphQLString,
        args: { times: { type: new GraphQLNonNull(GraphQLInt) } },
        resolve: (e, { times }: { times: number }) => {
          if (times < 0) throw new Error('negative times (internal detail)');
          return e.text.repeat(times);
        },
      },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType<unknown, Ctx>({
      name: 'Subscription',
      fields: {
        events: {
          type: Event,
          args: { after: { type: GraphQLString } },
          subscribe: (_root, _args, ctx) => {
            if (ctx.viewer === 'intruder') throw new GraphQLError('Not allowed', { extensions: { code: 'FORBIDDEN' } });
            const queue: { text: string }[] = [];
            let wake: (() => void) | null = null;
            const listener: Listener = (event) => {
              queue.push(event);
              wake?.();
            };
            listeners.add(listener);
            return {
              [Symbol.asyncIterator]() {
                return this;
              },
              async next() {
                while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
                return { value: queue.shift()!, done: false };
              },
              async return() {
                listeners.delete(listener);
                return { value: undefined, done: true };
              },
            };
          },
          resolve: (event) => event,
        },
        other: { type: Event, subscribe: () => (async function* () {})(), resolve: (event) => event },
      },
    }),
  });
  const plugin = useSharedSubscriptionExecution<Ctx>({
    rootFields: ['events'],
    contextKey: (ctx) => ctx.viewer,
    shareable,
  });
  const yoga = createYoga<Record<string, unknown>, Ctx>({ schema, plugins: [plugin] });
  const subscribe = async (query: string, variables: Record<string, unknown>, viewer: string | null) => {
    const { subscribe: run, parse: parseDoc } = yoga.getEnveloped({});
    const result = await run({
      schema,
      document: parseDoc(query),
      variableValues: variables,
      contextValue: { viewer },
    });
    if (!(Symbol.asyncIterator in (result as object)))
      return { errors: (result as ExecutionResult).errors, next: async () => null };
    const iterator = (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
    return {
      errors: undefined,
      next: async () => (await iterator.next()).value as ExecutionResult,
      close: () => iterator.return?.(),
    };
  };
  const publish = (text: string) => {
    const event = { text }; // one object for every subscriber, as the bus does
    for (const listener of listeners) listener(event);
    return event;
  };
  return { plugin, subscribe, publish };
}

const Q = `subscription($after: String, $times: Int!) { events(after: $after) { text viewer repeat(times: $times) } }`;

describe('shared subscription execution', () => {
  it('executes an event once for subscribers with the same document, variables and viewer', async () => {
    const { plugin, subscribe, publish } = setup();
    // `after` only picks the source stream: it does not split the subscribers
    const subs = await Promise.all([
      subscribe(Q, { times: 2 }, 'ann'),
      subscribe(Q, { times: 2, after: '5' }, 'ann'),
      subscribe(Q, { after: '9', times: 2 }, 'ann'),
    ]);
    publish('a');
    publish('b');
    const results = await Promise.all(subs.map(async (s) => [await s.next(), await s.next()]));
    expect(results[0]![0]).toEqual({ data: { events: { text: 'a', viewer: 'ann', repeat: 'aa' } } });
    expect(results[0]![1]).toEqual({ data: { events: { text: 'b', viewer: 'ann', repeat: 'bb' } } });
    // the very same result objects
    expect(results[1]![0]).toBe(results[0]![0]);
    expect(results[2]![1]).toBe(results[0]![1]);
    expect(plugin.stats).toEqual({ executions: 2, shared: 4 });
  });

  it('does not keep the result of an event that is not shareable (one made for a single subscriber)', async () => {
    const own = new WeakSet<object>();
    const { plugin, subscribe, publish } = setup((event) => !own.has(event as object));
    const subs = await Promise.all([subscribe(Q, { times: 1 }, 'ann'), subscribe(Q, { times: 1 }, 'ann')]);
    publish('shared');
    own.add(publish('private'));
    const results = await Promise.all(subs.map(async (s) => [await s.next(), await s.next()]));
    expect(results[1]![0]).toBe(results[0]![0]);
    // Executed for each subscriber, equal but not the same object: nothing was cached for it.
    expect(results[1]![1]).toEqual({ data: { events: { text: 'private', viewer: 'ann', repeat: 'private' } } });
    expect(results[1]![1]).not.toBe(results[0]![1]);
    expect(plugin.stats).toEqual({ executions: 3, shared: 1 });
  });

  it(
    'gives different variables, documents and viewers their ' +
      'own results, and keeps an error to its own subscribers',
    async () => {
      const { plugin, subscribe, publish } = setup();
      const two = await subscribe(Q, { times: 2 }, 'ann');
      const three = await subscribe(Q, { times: 3 }, 'ann');
      const failing = await subscribe(Q, { times: -1 }, 'ann');
      const bob = await subscribe(Q, { times: 2 }, 'bob');
      const nameOnly = await subscribe(`subscription { events { text } }`, {}, 'ann');
      const unkeyed = await subscribe(Q, { times: 2 }, null);
      publish('x');
      expect(await two.next()).toEqual({ data: { events: { text: 'x', viewer: 'ann', repeat: 'xx' } } });
      expect(await three.next()).toEqual({ data: { events: { text: 'x', viewer: 'ann', repeat: 'xxx' } } });
      expect(await bob.next()).toEqual({ data: { events: { text: 'x', viewer: 'bob', repeat: 'xx' } } });
      expect(await nameOnly.next()).toEqual({ data: { events: { text: 'x' } } });
      expect(await unkeyed.next()).toEqual({ data: { events: { text: 'x', viewer: null, repeat: 'xx' } } });
      const failed = (await failing.next())!;
      expect(failed.data).toEqual({ events: { text: 'x', viewer: 'ann', repeat: null } });
      // masked like any other unexpected error, and only for this subscriber
      expect(failed.errors?.map((e) => e.message)).toEqual(['Unexpected error.']);
      // five keys, five executions; the subscriber without a context key took the unshared path
      expect(plugin.stats).toEqual({ executions: 5, shared: 0 });
    },
  );

  it('leaves subscribe-time errors and unlisted root fields to the normal path', async () => {
    const { plugin, subscribe } = setup();
    const refused = await subscribe(Q, { times: 1 }, 'intruder');
    expect(refused.errors?.map((e) => e.message)).toEqual(['Not allowed']);
    const badVariables = await subscribe(Q, { times: 'many' }, 'ann');
    expect(badVariables.errors?.[0]?.message).toMatch(/times/);
    const other = await subscribe(`subscription { other { text } }`, {}, 'ann');
    expect(other.errors).toBeUndefined();
    expect(plugin.stats).toEqual({ executions: 0, shared: 0 });
  });

  it('builds the same next frame graphql-ws would, serializing a result once', () => {
    const ok: ExecutionResult = { data: { events: { text: 'a "quoted" \u2028 line' } } };
    const failed: ExecutionResult = {
      data: null,
      errors: [new GraphQLError('boom', { extensions: { code: 'X' }, path: ['events'] })],
    };
    for (const result of [ok, failed]) {
      for (const id of ['1', 'sub "7"']) {
        const { errors, ...rest } = result;
        const expected = stringifyMessage({
          id,
          type: MessageType.Next,
          payload: { ...rest, ...(errors ? { errors: errors.map((e) => e.toJSON()) } : {}) },
        });
        expect(nextFrame(id, result)).toBe(expected);
      }
    }
  });
});
