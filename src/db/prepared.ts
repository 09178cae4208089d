// Statements worth preparing. Kysely sends every statement unnamed, so the server parses and plans
// it at every run; a statement that starts with this marker is sent as a named prepared statement
// instead (src/db/connect.ts), planned once per connection. Only hot, fixed statements are marked.
import { sql, type RawBuilder } from 'kysely';

export const PREPARED_MARK = '/* prepared: ';

/** The start of a statement to prepare: `${PREPARED('name')} select …`. */
export const PREPARED = (name: string): RawBuilder<unknown> => sql.raw(`${PREPARED_MARK}${name} */ `);
