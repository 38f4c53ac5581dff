/** The part of autocannon (devDependency, no bundled types) that bench/peer.ts and bench/history-ab.ts use. */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** a number of requests instead of a duration */
    amount?: number;
  }
  interface Result {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
