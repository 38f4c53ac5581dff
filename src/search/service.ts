/**
 * Session search: which sessions match a literal, case-insensitive term in
 * their display history (hot and archived), and where. The term is checked
 * here; the plans and their SQL are in src/store/search.ts.
 */
import { BadInput } from '../store/errors.js';
import type { ListOptions, SessionQuery } from '../store/sessions.js';
import type { SearchPage, SearchStore } from '../store/search.js';

export const MAX_TERM_LENGTH = 200;

export class SearchService {
  constructor(private readonly searches: SearchStore) {}

  private validTerm(raw: string): string {
    const term = raw.trim();
    if (term.length > MAX_TERM_LENGTH) throw new BadInput(`search must be at most ${MAX_TERM_LENGTH} characters`);
    // PostgreSQL text cannot hold NUL, so no message can contain it.
    if (term.includes('\u0000')) throw new BadInput('search must not contain NUL characters');
    return term;
  }

  /**
   * One page of sessions(search:): the plain list's order and pinned-first rule, totalCount exact up to the cap
   * (totalCountIsExact), matches per edge.
   */
  search(options: Omit<ListOptions, 'ids' | 'probe'>, query: SessionQuery, raw: string): Promise<SearchPage> {
    return this.searches.search(options, query, this.validTerm(raw));
  }
}
