/**
 * The raw-history index lives in src/store/memory.ts (SQL) and
 * src/domain/memory-text.ts (chunks and terms); the GraphQL layer still
 * imports it from here until it moves to those modules.
 */
export { MemoryIndex, type MemoryHit, type MemoryScope } from '../store/memory.js';
