/** Headers every GraphQL answer carries (the Yoga plugin in server.ts sets the same). */
export const RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  // Share tokens live in the URL hash; never leak a page URL through Referer.
  'referrer-policy': 'no-referrer',
  // No other site may frame GraphiQL (a framed page with a prefilled ?query= is one click from running it).
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};
