import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, http } from './http';

// What a failed answer says to the user: the server's own message, else a short text answer,
// else a Dutch message by status; never the browser's English status text or a proxy's HTML page.
const answer = (status: number, body: string, statusText: string) =>
  vi.fn(async () => new Response(body, { status, statusText }));

afterEach(() => vi.unstubAllGlobals());

async function failureOf(status: number, body: string, statusText = 'Internal Server Error') {
  vi.stubGlobal('fetch', answer(status, body, statusText));
  const err = await http.get('/iets', z.unknown()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('a failed answer', () => {
  it("carries the server's message", async () => {
    expect((await failureOf(409, JSON.stringify({ message: 'Al uitgereikt' }))).message).toBe(
      'Al uitgereikt',
    );
  });

  it('is said in Dutch when the answer has no message', async () => {
    expect((await failureOf(500, '')).message).toBe('Er ging iets mis op de server (500)');
    expect((await failureOf(400, '{}', 'Bad Request')).message).toBe('Het verzoek is geweigerd (400)');
  });

  it("never shows a proxy's HTML page or the English status text", async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    const err = await failureOf(502, page, 'Bad Gateway');
    expect(err.message).toBe('De server is tijdelijk niet bereikbaar (502); probeer het zo opnieuw');
    expect(err.status).toBe(502);
  });

  it('keeps a short plain-text answer', async () => {
    expect((await failureOf(413, 'Bestand te groot')).message).toBe('Bestand te groot');
  });
});
