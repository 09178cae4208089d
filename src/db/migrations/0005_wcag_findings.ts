// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// WCAG findings carry the elements behind them (occurrences: rule, selector, snippet), the engine
// rule ids and the W3C ACT rule ids; a WCAG audit records whether its AI judgement step ran.
// All NULL for other branches and for rows written before this migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('findings')
    .addColumn('occurrences', 'jsonb')
    .addColumn('rules', 'jsonb')
    .addColumn('act_rules', 'jsonb')
    .execute();
  await db.schema.alterTable('audits').addColumn('ai', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audits').dropColumn('ai').execute();
  await db.schema.alterTable('findings').dropColumn('occurrences').dropColumn('rules').dropColumn('act_rules').execute();
}
