import { describe, expect, it } from 'vitest';
import { loginPathFor, returnPathOf, safeReturnPath, withReturn } from './returnPath';

describe('the path a visitor comes back to after login', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeReturnPath('/video/12')).toBe('/video/12');
    expect(safeReturnPath('/user/l%C3%A9a?x=1#top')).toBe('/user/l%C3%A9a?x=1#top');
    expect(returnPathOf('?retour=%2Fvideo%2F12')).toBe('/video/12');
  });

  it.each([
    '//evil.example',
    '//evil.example/video/1',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'http:evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\tevil',
    '/%0a/evil',
    ' /video/1',
    '',
    '/login',
    '/register?retour=/x',
  ])('refuses %j', (raw) => {
    const kept = safeReturnPath(raw);
    // a refused path is null; an encoded newline stays encoded in a same-site path
    if (raw === '/%0a/evil') expect(kept).toBe('/%0a/evil');
    else expect(kept).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(['/video/1'])).toBeNull();
  });

  it('builds the login address of the page asked for', () => {
    expect(loginPathFor({ pathname: '/video/3', search: '?a=1' })).toBe('/login?retour=%2Fvideo%2F3%3Fa%3D1');
    expect(loginPathFor({ pathname: '/' })).toBe('/login');
    expect(loginPathFor({ pathname: '/login', search: '?retour=%2Fx' })).toBe('/login');
    expect(withReturn('/register', '//evil.example')).toBe('/register');
  });
});
