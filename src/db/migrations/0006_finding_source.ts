// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// A WCAG finding records who decided it: `rules` (the static rule engine) or `ai` (the AI
// judgement step). NULL for other branches and for rows written before this migration, whose
// responses carried no `source`, so reading them back still returns what their 201 returned.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('findings').addColumn('source', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('findings').dropColumn('source').execute();
}
