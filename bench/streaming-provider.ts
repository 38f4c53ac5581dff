/**
 * Worker thread of bench/streaming.ts: the wire-level Ollama (/api/chat,
 * NDJSON) that stamps each chunk with the moment it is written. A real
 * provider runs on other hardware; here it gets its own event loop so its
 * timers and writes neither take the server's thread nor wait for it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { chunks, chunkMs, failEvery } = workerData as { chunks: number; chunkMs: number; failEvery: number };
const now = () => performance.timeOrigin + performance.now();
let served = 0;

const server = createServer((req, res) => {
  req.resume();
  // failEvery > 0: every failEvery-th stream dies after its first chunk (the turn ends FAILED).
  const fails = failEvery > 0 && ++served % failEvery === 0;
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (let i = 0; i < chunks; i++) {
      await new Promise((r) => setTimeout(r, chunkMs));
      if (fails && i === 1) return void res.socket?.destroy();
      const chunk = { model: 'm', message: { role: 'assistant', content: `@${now().toFixed(3)}|${i}|` }, done: false };
      res.write(`${JSON.stringify(chunk)}\n`);
    }
    const last = {
      model: 'm',
      message: { role: 'assistant', content: '' },
      done: true,
      prompt_eval_count: 100,
      eval_count: chunks,
    };
    res.end(`${JSON.stringify(last)}\n`);
  });
});
server.listen(0, '127.0.0.1', () =>
  parentPort!.postMessage({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
);
