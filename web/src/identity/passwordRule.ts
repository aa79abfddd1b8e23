/** the server's rule (domain/src/identity/rules.ts, LIMITS.passwordMin), said before submitting */
export const PASSWORD_MIN = 8;
export const PASSWORD_RULE = `Au moins ${PASSWORD_MIN} caractères.`;
