/** Issue 6: session file uploads over GraphQL multipart, the download route, Session.files, cleanup. */
import nodeFs, { promises as fs } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind, eventually, queryText, type ServerContext } from './support/harness.js';
import { UploadsDeleteDocument, UploadsFilesDocument, UploadsHistoryDocument } from './generated/graphql.js';
import { ollamaRequest } from './support/fake-provider.js';
import { ELF_HEAD, PE_HEAD, PNG_1x1, SHEBANG } from './fixtures/files/images.js';
import { multipart, newSession, rawId, sendWithAttachments, upload, UPLOAD } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-uploads-${process.pid}-${Date.now()}`;
  t = await createTestServer({
    titleGenerationEnabled: false,
    sessionFilesDir: filesDir,
    sessionFilesMaxSizeMb: 1,
    sessionFilesCleanupIntervalMs: 1000,
  });
});
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const dirOf = (id: string) => path.join(filesDir, 'session_files', rawId(id));
const spoolDir = () => path.join(filesDir, 'session_files', '.incoming');
async function entries(dir: string): Promise<string[]> {
  return (await fs.readdir(dir).catch(() => [] as string[])).sort();
}

describe(`uploads (${dbKind})`, () => {
  it('stores files, gives duplicates a numeric suffix and lists them in Session.files', async () => {
    const id = await newSession(t);
    const r1 = await upload(t, id, [
      { name: 'report.pdf', bytes: '%PDF-1.4 fake' },
      { name: 'notes.txt', bytes: 'hello' },
    ]);
    expect(r1.body.errors).toBeUndefined();
    const r2 = await upload(t, id, [{ name: 'report.pdf', bytes: '%PDF-1.4 other' }]);
    const r3 = await upload(t, id, [{ name: 'report.pdf', bytes: '%PDF-1.4 third' }]);
    expect(r1.body.data!.uploadSessionFiles.map((f) => f.filename)).toEqual(['report.pdf', 'notes.txt']);
    expect(r2.body.data!.uploadSessionFiles[0].filename).toBe('report (1).pdf');
    expect(r3.body.data!.uploadSessionFiles[0].filename).toBe('report (2).pdf');
    expect(r1.body.data!.uploadSessionFiles[1]).toMatchObject({
      size: 5,
      contentType: 'text/plain; charset=utf-8',
      url: `/sessions/${rawId(id)}/files/notes.txt`,
    });
    expect(await fs.readFile(path.join(dirOf(id), 'report (1).pdf'), 'utf8')).toBe('%PDF-1.4 other');
    const listed = await t.http(UploadsFilesDocument, { id });
    expect(listed.data!.session!.files.map((f) => f.filename).sort()).toEqual([
      'notes.txt',
      'report (1).pdf',
      'report (2).pdf',
      'report.pdf',
    ]);
    expect(await entries(spoolDir())).toEqual([]);
  });

  it('sanitizes traversal and control-character names; nothing lands outside the session directory', async () => {
    const id = await newSession(t);
    const r = await upload(t, id, [
      { name: '../../../../etc/passwd', bytes: 'x' },
      { name: '..\\..\\win.ini', bytes: 'y' },
      { name: 'a\u0007b\u0001c.txt', bytes: 'z' },
    ]);
    expect(r.body.errors).toBeUndefined();
    const names = r.body.data!.uploadSessionFiles.map((f) => f.filename);
    for (const n of names) expect(n).not.toMatch(/[/\\\u0000-\u001f]|^\./);
    expect(names).toEqual(['passwd', 'win.ini', 'abc.txt']);
    expect(await entries(dirOf(id))).toEqual(['abc.txt', 'passwd', 'win.ini']);
    expect(await entries(path.join(filesDir, 'etc'))).toEqual([]);
    const bad = await upload(t, id, [{ name: '..', bytes: 'x' }]);
    expect(bad.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('rejects executables by extension and by signature, writing nothing', async () => {
    const id = await newSession(t);
    const cases = [
      { name: 'install.sh', bytes: 'echo hi' },
      { name: 'tool.exe', bytes: 'MZ' },
      { name: 'script.py', bytes: 'print(1)' },
      { name: 'innocent.dat', bytes: ELF_HEAD },
      { name: 'readme.txt', bytes: SHEBANG },
      { name: 'photo.jpg', bytes: PE_HEAD },
    ];
    for (const c of cases) {
      const r = await upload(t, id, [c]);
      expect(r.body.errors?.[0]?.extensions?.code, c.name).toBe('BAD_USER_INPUT');
      expect(r.body.errors![0]!.message).toMatch(/Executable files are not accepted/);
    }
    // all or nothing: a good file next to a bad one is not kept
    const mixed = await upload(t, id, [
      { name: 'ok.txt', bytes: 'fine' },
      { name: 'bad.bin', bytes: ELF_HEAD },
    ]);
    expect(mixed.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await entries(dirOf(id))).toEqual([]);
    expect(await entries(spoolDir())).toEqual([]);
  });

  it('over the size limit answers PAYLOAD_TOO_LARGE (413) while streaming, writing nothing', async () => {
    const id = await newSession(t);
    const big = new Uint8Array(1024 * 1024 + 1).fill(65);
    const r = await upload(t, id, [{ name: 'big.txt', bytes: big }]);
    expect(r.status).toBe(413);
    expect(r.body.errors![0]!.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.body.errors![0]!.message).toMatch(/exceeds the upload limit of 1 MB/);
    const exact = await upload(t, id, [{ name: 'exact.txt', bytes: new Uint8Array(1024 * 1024).fill(66) }]);
    expect(exact.body.errors).toBeUndefined();
    expect(await entries(dirOf(id))).toEqual(['exact.txt']);
    // much larger than the limit: refused as soon as the limit is crossed, connection still answered
    const huge = await upload(t, id, [{ name: 'huge.txt', bytes: new Uint8Array(8 * 1024 * 1024) }]);
    expect(huge.body.errors![0]!.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await entries(dirOf(id))).toEqual(['exact.txt']);
    await eventually(
      () => entries(spoolDir()),
      (e) => e.length === 0,
    );
  });

  it('a truncated multipart body is a clear error and writes nothing', async () => {
    const id = await newSession(t);
    const boundary = '----trunc';
    const operations = JSON.stringify({ query: queryText(UPLOAD), variables: { sessionId: id, files: [null] } });
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.files.0"]}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; ` +
      'filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\nhalf of the conte';
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-graphql-yoga-csrf': '1' },
      body,
    });
    const json = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(response.status).toBe(400);
    expect(json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(json.errors[0].message).toMatch(/truncated|Unexpected end/i);
    expect(await entries(dirOf(id))).toEqual([]);

    // the client hangs up mid-file: nothing written, spool cleaned
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${t.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'x-graphql-yoga-csrf': '1',
          'content-length': '100000',
        },
      });
      req.on('error', () => resolve());
      req.write(body);
      // hang up once the server is spooling the file (not after a guessed pause)
      void eventually(
        () => entries(spoolDir()),
        (e) => e.length > 0,
      ).finally(() => {
        req.destroy();
        resolve();
      });
    });
    // the server has given up on the request when its spool is clean; only then is "nothing written" meaningful
    await eventually(
      () => entries(spoolDir()),
      (e) => e.length === 0,
    );
    expect(await entries(dirOf(id))).toEqual([]);
  });

  it('a spool file opened after the request failed is removed too (truncated body, client hang-up)', async () => {
    // The spool file is created by an open on the thread pool, so the request can fail, and be cleaned up, before
    // the file exists (a loaded machine). Each open is held here (a slow disk) until the test releases it.
    const id = await newSession(t);
    const boundary = '----late';
    const operations = JSON.stringify({ query: queryText(UPLOAD), variables: { sessionId: id, files: [null] } });
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.files.0"]}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; ` +
      'filename="late.txt"\r\nContent-Type: text/plain\r\n\r\nthe first bytes';
    const open = nodeFs.open;
    const held: (() => void)[] = [];
    let opening = 0;
    let onOpen: () => void = () => undefined;
    nodeFs.open = ((p: unknown, ...rest: unknown[]) => {
      if (typeof p !== 'string' || !p.startsWith(spoolDir())) return (open as (...a: unknown[]) => void)(p, ...rest);
      const callback = rest.pop() as (...a: unknown[]) => void;
      opening++;
      held.push(() =>
        (open as (...a: unknown[]) => void)(p, ...rest, (...result: unknown[]) => {
          opening--;
          callback(...result);
        }),
      );
      onOpen();
    }) as typeof nodeFs.open;
    const release = () => {
      for (const go of held.splice(0)) go();
    };
    // the server's cleanup of a spool path releases its open: the file appears only after that cleanup
    const rm = fs.rm;
    fs.rm = ((p: unknown, ...rest: unknown[]) => {
      const done = (rm as (...a: unknown[]) => Promise<void>)(p, ...rest);
      if (String(p).startsWith(spoolDir()) && hangingUp) void done.finally(release);
      return done;
    }) as typeof fs.rm;
    let hangingUp = false;
    const settled = () =>
      eventually(
        () => entries(spoolDir()),
        (e) => e.length === 0 && opening === 0 && held.length === 0,
      );
    try {
      // The body ends inside the file: the server answers 400 while the spool file is still being opened.
      const response = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-graphql-yoga-csrf': '1' },
        body: head,
      });
      expect(response.status).toBe(400);
      expect(held).toHaveLength(1);
      release();
      await settled();

      // The client hangs up the instant the server opens the spool
      // file; the open completes after the server removed the path.
      hangingUp = true;
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${t.url}/graphql`, {
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'x-graphql-yoga-csrf': '1',
            'content-length': '100000',
          },
        });
        req.on('error', () => resolve());
        onOpen = () => {
          req.destroy();
          resolve();
        };
        req.write(head);
      });
      await settled();
    } finally {
      nodeFs.open = open;
      fs.rm = rm;
      release();
    }
    expect(await entries(dirOf(id))).toEqual([]);
  });

  it("sendMessage files: the model receives the seed's upload notice word for word", async () => {
    const id = await newSession(t);
    t.fake.enqueue({ text: 'got it' });
    const { result, events } = await sendWithAttachments(
      t,
      { sessionId: id, content: 'Please read these' },
      {
        files: [
          { name: 'spec.pdf', bytes: '%PDF-1.7' },
          { name: 'data.csv', bytes: 'a,b\n1,2\n' },
        ],
      },
    );
    expect(result.body.errors).toBeUndefined();
    expect(events.at(-1)?.__typename).toBe('TurnEnded');
    const sid = rawId(id);
    const expected =
      'Please read these\n\n[Uploaded files on disk:\n- spec.pdf → ' +
      `session_files/${sid}/spec.pdf\n- data.csv → session_files/${sid}/data.csv]`;
    const sent = ollamaRequest(t.fake.requests.at(-1)).messages!;
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: expected });
    // the notice is stored with the user's words (the model is sent exactly what is stored)
    const h = await t.http(UploadsHistoryDocument, { id });
    expect(h.data!.session!.history.edges[0].node).toEqual({
      content: expected,
      files: [`session_files/${sid}/spec.pdf`, `session_files/${sid}/data.csv`],
    });
  });

  it('download route: type from signature, nosniff, HTML/SVG sandboxed attachments, 404 alike', async () => {
    const id = await newSession(t);
    await upload(t, id, [
      { name: 'pic.txt', bytes: PNG_1x1 },
      { name: 'page.html', bytes: '<html><script>alert(1)</script></html>' },
      { name: 'logo.svg', bytes: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' },
      { name: 'ünï code.txt', bytes: 'text' },
    ]);
    const sid = rawId(id);
    const png = await fetch(`${t.url}/sessions/${sid}/files/pic.txt`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(png.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG_1x1)).toBe(true);
    for (const name of ['page.html', 'logo.svg']) {
      const r = await fetch(`${t.url}/sessions/${sid}/files/${name}`);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(r.headers.get('content-security-policy')).toBe('sandbox');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const uni = await fetch(`${t.url}/sessions/${sid}/files/${encodeURIComponent('ünï code.txt')}`);
    expect(await uni.text()).toBe('text');
    const missing = await fetch(`${t.url}/sessions/${sid}/files/nope.txt`);
    const traversal = await fetch(`${t.url}/sessions/${sid}/files/..%2F..%2Fetc%2Fpasswd`);
    const noSession = await fetch(`${t.url}/sessions/00000000-0000-4000-8000-000000000000/files/pic.txt`);
    for (const r of [missing, traversal, noSession]) {
      expect(r.status).toBe(404);
      expect(await r.text()).toBe('Not found');
    }
  });

  it('the cleanup loop removes directories of sessions that no longer exist', async () => {
    const id = await newSession(t);
    await upload(t, id, [{ name: 'keep.txt', bytes: 'x' }]);
    const orphan = path.join(filesDir, 'session_files', '11111111-2222-4333-8444-555555555555');
    await fs.mkdir(orphan, { recursive: true });
    await fs.writeFile(path.join(orphan, 'left.txt'), 'over');
    const doomed = await newSession(t);
    await upload(t, doomed, [{ name: 'gone.txt', bytes: 'x' }]);
    await t.http(UploadsDeleteDocument, { id: doomed });
    await eventually(
      async () => [await entries(orphan), await entries(dirOf(doomed))],
      ([a, b]) => a.length === 0 && b.length === 0,
      8000,
    );
    await expect(fs.stat(orphan)).rejects.toThrow();
    expect(await entries(dirOf(id))).toEqual(['keep.txt']);
  });
});

describe(`downloads with auth (${dbKind})`, () => {
  let a: ServerContext;
  beforeAll(async () => {
    a = await createTestServer({
      authEnabled: true,
      titleGenerationEnabled: false,
      sessionFilesDir: `${filesDir}-auth`,
    });
  });
  afterAll(async () => {
    await a.close();
    await fs.rm(`${filesDir}-auth`, { recursive: true, force: true });
  });

  it('serves the owner and read_all, answers others exactly like a missing file', async () => {
    const alice = (await a.app.auth.createUser('alice')).key;
    const bob = (await a.app.auth.createUser('bob')).key;
    const reader = (await a.app.auth.createUser('reader', { permissions: ['sessions.read_all'] })).key;
    const id = await newSession(a, alice);
    const up = await upload(a, id, [{ name: 'secret.txt', bytes: 'classified' }], alice);
    expect(up.body.errors).toBeUndefined();
    const url = `${a.url}${up.body.data!.uploadSessionFiles[0].url}`;
    const get = (token?: string) => fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect(await (await get(alice)).text()).toBe('classified');
    expect(await (await get(reader)).text()).toBe('classified');
    const foreign = await get(bob);
    const missing = await fetch(url.replace('secret.txt', 'other.txt'), {
      headers: { authorization: `Bearer ${bob}` },
    });
    expect([foreign.status, await foreign.text()]).toEqual([404, 'Not found']);
    expect([missing.status, await missing.text()]).toEqual([404, 'Not found']);
    expect((await get()).status).toBe(401);
    // bob cannot upload into alice's session either
    const intrude = await upload(a, id, [{ name: 'x.txt', bytes: 'x' }], bob);
    expect(intrude.body.errors![0]!.extensions?.code).toBe('NOT_FOUND');
    // nor the reader (read_all is not write)
    const readerUp = await upload(a, id, [{ name: 'x.txt', bytes: 'x' }], reader);
    expect(readerUp.body.errors![0]!.extensions?.code).toBe('NOT_FOUND');
    void multipart;
  });
});
