/**
 * A large ChatGPT `conversations.json`, generated (no fixture on disk): `conversations` conversations of
 * `messages` alternating user/assistant nodes, each message's text padded so the whole is about `bytes`.
 * Shared by test/slow/import-large.test.ts and bench/import-wait.ts.
 */
export function largeChatGptExport(bytes = 50 * 1024 * 1024, conversations = 200, messages = 100): string {
  const per = Math.max(16, Math.floor(bytes / (conversations * messages)) - 260);
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(per / 27)).slice(0, per);
  const out: string[] = [];
  for (let c = 0; c < conversations; c++) {
    const mapping: Record<string, unknown> = {};
    let parent: string | null = null;
    for (let m = 0; m < messages; m++) {
      const id = `c${c}-m${m}`;
      mapping[id] = {
        id,
        parent,
        children: m + 1 < messages ? [`c${c}-m${m + 1}`] : [],
        message: {
          id,
          author: { role: m % 2 === 0 ? 'user' : 'assistant' },
          content: { content_type: 'text', parts: [`${c}/${m} ${filler}`] },
          create_time: 1_700_000_000 + c * 1000 + m,
        },
      };
      parent = id;
    }
    out.push(
      JSON.stringify({
        title: `large ${c}`,
        create_time: 1_700_000_000 + c * 1000,
        update_time: 1_700_000_000 + c * 1000 + messages,
        mapping,
        current_node: `c${c}-m${messages - 1}`,
        conversation_id: `large-${c}`,
      }),
    );
  }
  return `[${out.join(',')}]`;
}
