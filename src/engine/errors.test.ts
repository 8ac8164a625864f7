import { describe, expect, it } from 'vitest';
import { BODY_CODE, CLIENT_MESSAGES, defaultMessageForCode, ERRORS, isErrorId, SUCCESS_MESSAGES } from './errors';

describe('E1 body codes', () => {
  it('E1 uses the body codes of spec §8', () => {
    expect(BODY_CODE).toEqual({
      ok: 200,
      invalidSession: 401,
      noPermission: 403,
      notFound: 404,
      serverError: 500,
      loginRequired: 501,
      businessWarning: 601,
    });
  });
});

describe('E1 error table', () => {
  it('E1 maps the session, permission and not-found errors to 401, 403 and 404', () => {
    expect(ERRORS.invalidSession).toEqual({ code: 401, message: 'errors.invalidSession' });
    expect(ERRORS.noPermission).toEqual({ code: 403, message: 'errors.noPermission' });
    expect(ERRORS.notFound).toEqual({ code: 404, message: 'errors.notFound' });
    expect(ERRORS.internal).toEqual({ code: 500, message: 'errors.internal', http: 500 });
  });

  it('S5 ends an inactive session with body code 401 and its own message', () => {
    expect(ERRORS.sessionInactive).toEqual({ code: 401, message: 'errors.sessionInactive' });
  });

  it('H3 has the password-change errors as business warnings (601)', () => {
    for (const id of ['oldPasswordRequired', 'passwordMismatch', 'passwordTooShort', 'passwordTooLong', 'passwordSameAsOld'] as const) {
      expect(ERRORS[id].code).toBe(601);
    }
  });

  it('E1 uses only body codes of spec §8', () => {
    const codes = new Set<number>(Object.values(BODY_CODE));
    for (const [id, definition] of Object.entries(ERRORS)) {
      expect({ id, known: codes.has(definition.code) }).toEqual({ id, known: true });
    }
  });

  it('L1 names every message by the locale key errors.<id>', () => {
    for (const [id, definition] of Object.entries(ERRORS)) {
      expect(definition.message).toBe(`errors.${id}`);
    }
  });

  it('E1 gives real HTTP statuses where they are set', () => {
    expect(ERRORS.badRequest.http).toBe(400);
    expect(ERRORS.payloadTooLarge.http).toBe(413);
    expect(ERRORS.tooManyAttempts.http).toBe(429);
  });
});

describe('E1 isErrorId', () => {
  it('E1 accepts the ids of the table', () => {
    expect(isErrorId('invalidSession')).toBe(true);
    expect(isErrorId('passwordMismatch')).toBe(true);
  });

  it('E1 refuses other values, inherited properties included', () => {
    for (const value of ['nope', 'InvalidSession', 'toString', 'constructor', '__proto__', '', 401, null, undefined]) {
      expect(isErrorId(value)).toBe(false);
    }
  });
});

describe('E1 defaultMessageForCode', () => {
  it('E1 has default texts for 401, 403 and 404', () => {
    expect(defaultMessageForCode(401)).toBe('errors.invalidSession');
    expect(defaultMessageForCode(403)).toBe('errors.noPermission');
    expect(defaultMessageForCode(404)).toBe('errors.notFound');
  });

  it('E1 falls back to the generic error-code text for any other code', () => {
    for (const code of [500, 501, 601, 418, 0]) expect(defaultMessageForCode(code)).toBe('errors.genericCode');
  });
});

describe('E2 C4 client messages', () => {
  it('E2 has the network, timeout and backend texts', () => {
    expect(CLIENT_MESSAGES.network).toBe('errors.network');
    expect(CLIENT_MESSAGES.timeout).toBe('errors.timeout');
    expect(CLIENT_MESSAGES.backend).toBe('errors.backend');
  });

  it('C4 has the resubmit text and E3 the preload text', () => {
    expect(CLIENT_MESSAGES.resubmit).toBe('errors.resubmit');
    expect(CLIENT_MESSAGES.preload).toBe('errors.preload');
  });

  it('E4 every client message key is unique and under errors.', () => {
    const keys = Object.values(CLIENT_MESSAGES);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key.startsWith('errors.')).toBe(true);
  });
});

describe('E4 success messages', () => {
  it('E4 has every success message of spec §8', () => {
    expect(Object.keys(SUCCESS_MESSAGES)).toEqual(
      expect.arrayContaining(['saved', 'editsSaved', 'deleted', 'emailSent', 'modified', 'newUserAdded', 'sent', 'inheritedProduct', 'copySuccess']),
    );
    for (const [id, key] of Object.entries(SUCCESS_MESSAGES)) expect(key).toBe(`success.${id}`);
  });

  it('S6 has the logged-out success message', () => {
    expect(SUCCESS_MESSAGES.loggedOut).toBe('success.loggedOut');
  });
});
