import { Type, type Static } from 'typebox';

/** POST /api/v3/staff-sessions (the box office's staff sign-in, engine/staff/sessions.ts). */
export const StaffSignInBody = Type.Object({ pin: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const StaffSession = Type.Object({
  apiKey: Type.String(),
  role: Type.Literal('box-office'),
  scopes: Type.Array(Type.String()),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type StaffSession = Static<typeof StaffSession>;
