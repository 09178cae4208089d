// Keyset paging for every list, newest first: a list position (a microsecond timestamp and a
// UUID), the query's one-row lookahead, and the position as an opaque cursor (base64url-encoded
// JSON). Below the HTTP layer: the stores page with it and the routes and the dashboard hand the
// cursor out. A cursor is opaque to clients but not a secret: a hand-made one can only ever select
// the presenting key's own rows. Anything that does not decode to exactly this shape is refused
// rather than guessed at.
import { Type } from 'typebox';
import { Value } from 'typebox/value';

/**
 * A place in a list ordered by (timestamp desc, id desc). `createdAt` is ISO 8601 UTC with the
 * database's microseconds: a JavaScript Date keeps only milliseconds, and a position rounded to
 * them would skip rows written later in the same millisecond.
 */
export interface ListPosition {
  createdAt: string;
  id: string;
}

const CursorPosition = Type.Object(
  {
    // The format rejects impossible dates (a February 30th), which the database would refuse.
    createdAt: Type.String({ format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$' }),
    id: Type.String({ format: 'uuid' }),
  },
  { additionalProperties: false },
);

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Value.Check(CursorPosition, decoded)) return undefined;
  // base64url decoding skips characters outside its alphabet; only a cursor we could have issued counts.
  return encodeCursor(decoded) === cursor ? decoded : undefined;
}

/** The SQL expression that renders a timestamptz column as a cursor's `createdAt`. */
export const POSITION_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * A list query asks for `limit + 1` rows, one more than the page: whether a next page exists,
 * without a count. This returns the page and where the next one starts (null at the end).
 */
export function pageOf<Row extends { position: string; id: string }>(rows: Row[], limit: number): { rows: Row[]; next: ListPosition | null } {
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  return { rows: rows.slice(0, limit), next: last ? { createdAt: last.position, id: last.id } : null };
}
