import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = new URL('../../scripts/check-imports.mjs', import.meta.url).pathname;
const roots: string[] = [];

/** A tree with src/domain/big.ts of `lines` lines and a longer src/generated/big.ts, checked by the script. */
function check(lines: number): { status: number | null; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  roots.push(root);
  const body = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');
  for (const [dir, n] of [
    ['src/domain', lines],
    ['src/generated', lines + 100],
  ] as const) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'big.ts'), body(n));
  }
  const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('scripts/check-imports.mjs: module size', () => {
  it('refuses a module over 500 lines, naming it', () => {
    const { status, out } = check(501);
    expect(status).toBe(1);
    expect(out).toContain('src/domain/big.ts: 501 lines (at most 500; split it)');
    expect(out).not.toContain('src/generated/big.ts');
  });

  it('accepts 500 lines, and ignores generated code of any size', () => {
    const { status, out } = check(500);
    expect(out).toContain('none over 500 lines');
    expect(status).toBe(0);
  });
});

describe('scripts/check-imports.mjs: the fast path fence', () => {
  function fenced(target: string): { status: number | null; out: string } {
    const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
    roots.push(root);
    mkdirSync(join(root, 'src/http/fast-path'), { recursive: true });
    writeFileSync(join(root, 'src/http/fast-path/index.ts'), "export { b } from './body.js';\n");
    writeFileSync(join(root, 'src/http/fast-path/body.ts'), 'export const b = 1;\n');
    writeFileSync(
      join(root, 'src/server.ts'),
      `import { b } from './http/fast-path/${target}.js';\nexport const s = b;\n`,
    );
    const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
    return { status: run.status, out: run.stdout + run.stderr };
  }

  it('refuses an import of a module behind src/http/fast-path/ but its index.ts', () => {
    const { status, out } = fenced('body');
    expect(status).not.toBe(0);
    expect(out).toContain('src/server.ts:1: imports src/http/fast-path/body.ts behind the fence');
  });

  it('accepts the entry point', () => {
    expect(fenced('index').status).toBe(0);
  });
});
