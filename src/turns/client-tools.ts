/** sendMessage's clientTools: names, no clash with the server's own tools, a bounded JSON Schema each. */
import { BadInput } from '../store/errors.js';
import { checkToolSchema, type ToolSchemaLimits } from './tool-schema.js';
import type { ClientToolDefinition } from './types.js';

export function validateClientTools(
  tools: ClientToolDefinition[],
  serverTools: { get(name: string): unknown },
  limits: ToolSchemaLimits,
): ClientToolDefinition[] {
  const names = new Set<string>();
  for (const tool of tools) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name))
      throw new BadInput(`Invalid client tool name ${JSON.stringify(tool.name)}`);
    if (names.has(tool.name)) throw new BadInput(`Duplicate client tool ${tool.name}`);
    // A server tool's result is trusted (content_publish cards, spill pointers); a client may not answer in its name.
    if (serverTools.get(tool.name))
      throw new BadInput(`Client tool ${tool.name} has the name of one of the server's own tools`);
    if (typeof tool.parameters !== 'object' || tool.parameters === null) {
      throw new BadInput(`Client tool ${tool.name}: parameters must be a JSON Schema object`);
    }
    checkToolSchema(tool.name, tool.parameters, limits);
    names.add(tool.name);
  }
  return tools;
}
