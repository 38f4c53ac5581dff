/**
 * Issue 32 item 8, as docs/api.md ("Resume") describes it: a client that missed the end of a turn which ended
 * before the server restarted resumes with `after`, gets EventsReset RESTARTED (the in-process log is gone), and
 * finds the turn's outcome in what it refetches: no active turn, the user message's `turn.status` and the stored
 * answer. The restart is a second app on the same database (the event log is the process's own).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../src/app.js';
import { appRoutes } from '../src/routes.js';
import { startServer } from '../src/server.js';
import {
  FaultsResumeCreateSessionDocument,
  FaultsResumeSendDocument,
  ResumeResetOutcomeDocument,
} from './generated/graphql.js';
import { startFakeProvider } from './support/fake-provider.js';
import { createTestDatabase, dbKind, gqlFor, testConfig } from './support/harness.js';
import { shape, untilSubscribed, wsSubscribe } from './support/resume.js';

describe(`resume after a restart (${dbKind})`, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  }, 300_000);

  it('a turn that ended before the restart: EventsReset, then its outcome in the refetched history', async () => {
    const fake = await startFakeProvider();
    cleanup.push(() => fake.stop());
    const { db, drop } = await createTestDatabase();
    cleanup.push(drop);
    const config = testConfig({
      ollamaHost: fake.url,
      openaiBaseUrl: `${fake.url}/v1`,
      anthropicBaseUrl: fake.url,
      titleGenerationEnabled: false,
      instanceId: 'resume-reset-test',
    });
    const boot = async () => {
      const app: App = await createApp(config, { db });
      const running = await startServer(app, { routes: appRoutes(app) });
      await app.start?.();
      return { app, running, gql: gqlFor(app), url: running.url };
    };

    let server = await boot();
    const sessionId = (await server.gql(FaultsResumeCreateSessionDocument, {})).data!.createSession.id;
    const watching = wsSubscribe(server.url, { sessionId });
    await untilSubscribed(server.gql, sessionId, [watching]);
    fake.enqueue({ text: ['The stored ', 'answer'] });
    await server.gql(FaultsResumeSendDocument, { input: { sessionId, content: 'question' } });
    await watching.waitFor((es) => es.some((e) => e.__typename === 'TurnStarted'));
    // The client's cursor stops at TurnStarted: it misses the end, which then goes with the old process's log.
    const cursor = watching.events.find((e) => e.__typename === 'TurnStarted')!.eventId;
    await watching.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    await watching.dispose();
    await server.running.close();
    await server.app.close();

    server = await boot();
    cleanup.push(async () => {
      await server.running.close();
      await server.app.close();
    });
    const resumed = wsSubscribe(server.url, { sessionId, after: cursor });
    await untilSubscribed(server.gql, sessionId, [resumed]);
    expect(resumed.events.map(shape)[0]).toBe('EventsReset:RESTARTED');
    expect(resumed.events.map((e) => e.__typename)).not.toContain('TurnEnded');
    const outcome = await server.gql(ResumeResetOutcomeDocument, { id: sessionId });
    const session = outcome.data!.session!;
    expect(session.activeTurn).toBeNull();
    const [user, answer] = session.history.edges.map((e) => e.node);
    expect(user).toMatchObject({ role: 'USER', content: 'question', turn: { status: 'COMPLETED' } });
    expect(answer).toMatchObject({ role: 'ASSISTANT', content: 'The stored answer', stopped: false });
    await resumed.dispose();
  }, 300_000);
});
