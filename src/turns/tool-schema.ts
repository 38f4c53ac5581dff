/**
 * Bounds of a client tool's JSON Schema (`parameters`): nesting depth and size as JSON. A schema nested 10,000
 * levels deep overflowed the stack in the code that serializes and converts it for a provider (reported as
 * PROVIDER_UNAVAILABLE); one of megabytes would be resent with every model call. Checked where a tool enters the
 * service, before anything recursive reads it: sendMessage's clientTools (src/turns/service.ts) and any other door
 * that takes tool definitions calls `checkToolSchema`. The walk is iterative and stops at the first limit crossed,
 * so a hostile schema costs at most `maxBytes` of work.
 */
import type { Config } from '../config.js';
import { BadInput } from '../store/errors.js';

export interface ToolSchemaLimits {
  /** TOOL_SCHEMA_MAX_DEPTH: objects and arrays nested inside one another, the outermost counting 1 */
  maxDepth: number;
  /** TOOL_SCHEMA_MAX_BYTES: the schema's length as compact JSON (UTF-16 code units) */
  maxBytes: number;
}

export function toolSchemaLimits(config: Pick<Config, 'toolSchemaMaxDepth' | 'toolSchemaMaxBytes'>): ToolSchemaLimits {
  return { maxDepth: config.toolSchemaMaxDepth, maxBytes: config.toolSchemaMaxBytes };
}

/** What the first crossed limit is, or null: depth and compact-JSON length, measured without recursion. */
export function measureToolSchema(value: unknown, limits: ToolSchemaLimits): 'depth' | 'bytes' | null {
  const stack: [unknown, number][] = [[value, 1]];
  let bytes = 0;
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (Array.isArray(current) || (current !== null && typeof current === 'object')) {
      if (depth > limits.maxDepth) return 'depth';
      const entries = Array.isArray(current) ? current.map((v) => [null, v] as const) : Object.entries(current);
      // Brackets, and a comma between entries.
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [key, item] of entries) {
        // "key": — the quotes and escapes of the key, and the colon.
        if (key !== null) bytes += JSON.stringify(key).length + 1;
        stack.push([item, depth + 1]);
      }
    } else {
      // A leaf's JSON (undefined, as in an object, is left out by JSON: counted as null, an upper bound).
      bytes += (JSON.stringify(current) ?? 'null').length;
    }
    if (bytes > limits.maxBytes) return 'bytes';
  }
  return null;
}

/** BAD_USER_INPUT naming the limit when the tool's parameters cross one. */
export function checkToolSchema(toolName: string, parameters: unknown, limits: ToolSchemaLimits): void {
  const crossed = measureToolSchema(parameters, limits);
  if (crossed === 'depth')
    throw new BadInput(
      `Tool ${toolName}: parameters nest deeper than TOOL_SCHEMA_MAX_DEPTH (${limits.maxDepth} levels)`,
    );
  if (crossed === 'bytes')
    throw new BadInput(
      `Tool ${toolName}: parameters are larger than TOOL_SCHEMA_MAX_BYTES (${limits.maxBytes} bytes as JSON)`,
    );
}
