/**
 * A minimal `useChat` page pointed at this server (docs/api.md, "AI SDK chat stream"): only a URL and a key.
 * Drop it into any React app (Next.js `app/page.tsx`, Vite…); type-checked by `npm run typecheck`.
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { type FormEvent, useState } from 'react';

const SERVER = 'http://localhost:4000';
const API_KEY = 'sk-...';

/** The text of a message's text (or reasoning) parts, in order. */
function partsText(message: UIMessage, type: 'text' | 'reasoning'): string {
  return message.parts.map((part) => (part.type === type ? part.text : '')).join('');
}

export default function ChatPage() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, status, stop, error } = useChat({
    // useChat makes its own chat id: the server keeps it as the session's external id.
    transport: new DefaultChatTransport({
      api: `${SERVER}/api/chat`,
      headers: { authorization: `Bearer ${API_KEY}` },
    }),
    // Picks up an answer still running after a reload (GET /api/chat/{id}/stream).
    resume: true,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    void sendMessage({ text: input });
    setInput('');
  };

  return (
    <main>
      {messages.map((message) => (
        <div key={message.id}>
          <strong>{message.role}: </strong>
          {message.parts.some((part) => part.type === 'reasoning') && <em>{partsText(message, 'reasoning')}</em>}
          <span>{partsText(message, 'text')}</span>
        </div>
      ))}
      {error && <p role="alert">{error.message}</p>}
      <form onSubmit={submit}>
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Say something" />
        {status === 'streaming' || status === 'submitted' ? (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
    </main>
  );
}
