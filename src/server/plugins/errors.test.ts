import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import errors from './errors';

// E1: the browser shows a body code 500 message as HTML (sanitised). The server builds it from the
// locale table and values: a value holding markup must reach the browser as text, never as a tag
// with an event handler or a javascript: link.

describe('server messages the browser shows as HTML', () => {
  it('a value with markup in a code 500 message is escaped; the message keeps its words', async () => {
    const app = Fastify();
    await app.register(errors);
    app.get('/probe', async () => {
      throw new AppError('internal', null, { requestId: '<img src=x onerror=alert(1)><a href="javascript:alert(2)">x</a>' });
    });
    const answer = (await app.inject({ method: 'GET', url: '/probe' })).json() as { code: number; msg: string };
    await app.close();
    expect(answer.code).toBe(500);
    expect(answer.msg).not.toMatch(/<img|<a\b/i);
    expect(answer.msg).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });
});
