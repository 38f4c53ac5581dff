/** Server-side tools the model may call during a turn. Later features register theirs here. */
import type { LlmToolDefinition } from '../llm/types.js';

export interface ToolContext {
  sessionId: string;
  turnId: string;
  signal: AbortSignal;
}

export interface ToolOutcome {
  content: string;
  isError?: boolean;
  /** keep verbatim through compression */
  critical?: boolean;
  metadata?: Record<string, unknown>;
}

export interface ServerTool extends LlmToolDefinition {
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}

export class ToolRegistry {
  private readonly tools = new Map<string, ServerTool>();

  register(tool: ServerTool): this {
    this.tools.set(tool.name, tool);
    return this;
  }

  get(name: string): ServerTool | undefined {
    return this.tools.get(name);
  }

  definitions(): LlmToolDefinition[] {
    return [...this.tools.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  async run(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) return { content: `Error: unknown tool ${name}`, isError: true };
    try {
      return await tool.run(args, ctx);
    } catch (error) {
      return { content: `Error: ${(error as Error).message}`, isError: true };
    }
  }
}
