// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Read-back of an audit (GET /api/v1/audits/{id}) returns exactly what the 201 returned, so each
// checked control now keeps its framework, requirement, severity and location too. Rows written
// before this migration keep NULL there: framework, requirement and severity follow from the
// control id (ids never change meaning), which the reader re-derives from the registry; a
// control's location is copied here from its finding when it had one, since both came from the
// same outcome.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('audit_controls')
    .addColumn('framework', 'text')
    .addColumn('requirement', 'text')
    .addColumn('severity', 'text')
    .addColumn('selector', 'text')
    .addColumn('snippet', 'text')
    .execute();

  await sql`
    update audit_controls as c
    set selector = f.selector, snippet = f.snippet
    from findings as f
    where f.audit_id = c.audit_id and f.control = c.control and f.selector is not null
  `.execute(db);

  // A key's audits, newest first, in keyset order (created_at desc, id desc).
  await db.schema
    .createIndex('audits_api_key_created_idx')
    .on('audits')
    .columns(['api_key_id', 'created_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audits_api_key_created_idx').execute();
  await db.schema
    .alterTable('audit_controls')
    .dropColumn('framework')
    .dropColumn('requirement')
    .dropColumn('severity')
    .dropColumn('selector')
    .dropColumn('snippet')
    .execute();
}
