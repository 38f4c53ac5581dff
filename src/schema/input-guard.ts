/**
 * No string argument may hold a NUL character or a lone UTF-16 surrogate:
 * PostgreSQL refuses both (error 22021), and a lone surrogate is not text.
 * Checked once per operation, before any resolver: every string literal of
 * the document (arguments inline, nested input objects, defaults) and every
 * string and object key inside the variables (JSON scalars included).
 */
import { GraphQLError, Kind, type DocumentNode, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../domain/error-codes.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badText(s: string): boolean {
  return s.includes('\u0000') || LONE_SURROGATE.test(s);
}

function describe(s: string): string {
  return s.includes('\u0000') ? 'a NUL character' : 'a lone UTF-16 surrogate';
}

/** The first bad string in a variables value (File uploads and other class instances are skipped), or null. */
function findInValue(value: unknown, path: string): { path: string; text: string } | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (badText(current)) return { path: at, text: current };
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${at}[${i}]`]));
    } else if (current && typeof current === 'object') {
      const proto = Object.getPrototypeOf(current);
      if (proto !== Object.prototype && proto !== null) continue;
      for (const [key, item] of Object.entries(current)) {
        if (badText(key)) return { path: at, text: key };
        stack.push([item, `${at}.${key}`]);
      }
    }
  }
  return null;
}

/** Documents already checked (parsed documents are cached and reused, so each is visited once). */
const checkedDocuments = new WeakMap<DocumentNode, string | null>();

function findInDocument(document: DocumentNode): string | null {
  const known = checkedDocuments.get(document);
  if (known !== undefined) return known;
  let found: string | null = null;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (found === null && badText(node.value)) found = node.value;
    },
  });
  checkedDocuments.set(document, found);
  return found;
}

export function findMalformedText(document: DocumentNode, variables: unknown): GraphQLError | null {
  const inDocument = findInDocument(document);
  if (inDocument !== null) return reject(`A string argument contains ${describe(inDocument)}`);
  const inVariables = findInValue(variables ?? {}, '$');
  if (inVariables)
    return reject(`Variable ${inVariables.path.replace(/^\$\./, '$')} contains ${describe(inVariables.text)}`);
  return null;
}

function reject(message: string): GraphQLError {
  return new GraphQLError(`${message}: text may not hold NUL characters or unpaired surrogates`, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, http: { spec: true, status: 400 } },
  });
}

/** Envelop plugin: operations with malformed text answer BAD_USER_INPUT and never execute. */
export function useWellFormedText(): Plugin {
  const check = ({
    args,
    setResultAndStopExecution,
  }: {
    args: { document: DocumentNode; variableValues?: unknown };
    setResultAndStopExecution: (r: never) => void;
  }) => {
    const error = findMalformedText(args.document, args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] } as never);
  };
  return { onExecute: check, onSubscribe: check } as Plugin;
}
