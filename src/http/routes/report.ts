// GET /api/v1/audit/report: the one-page PDF summary of an origin for an admin (spec section 4,
// rules 1-7; errors in section 7). The session check runs first, before the query is even read, so
// a caller without an admin session learns nothing about targets or stored audits.
import type { FastifyInstance, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { BRANCHES } from '../../audit/control.ts';
import type { Database } from '../../db/schema.ts';
import { renderReportPdf, type ReportRenderer } from '../../report/pdf.ts';
import { parseReportTarget, selectReport, TICKETS_PER_PILLAR } from '../../report/snapshots.ts';
import { convertQuery } from '../query.ts';
import { ErrorBody, FieldErrorsBody, fieldErrors } from '../errors.ts';

export interface ReportRouteDeps {
  db: Kysely<Database>;
  /** The admin-session guard: replies 403 `{"error":"forbidden"}` without an admin session. */
  requireAdmin: preHandlerHookHandler;
  /** Default: the pdfkit renderer (tests inject a failing one). */
  render?: ReportRenderer;
  /** The report's "generated" time. */
  clock?: () => Date;
}

const TARGET_MAX = 2048;

const ReportQuery = Type.Object(
  {
    domain: Type.Optional(
      Type.String({
        maxLength: TARGET_MAX,
        description: 'A host name (`example.com`, optionally with a port) or an https URL. Give this or `url`, not both.',
      }),
    ),
    url: Type.Optional(
      Type.String({
        maxLength: TARGET_MAX,
        description: 'An https URL (its path and query are ignored) or a host name. Give this or `domain`, not both.',
      }),
    ),
  },
  { additionalProperties: false },
);

const MissingSnapshotsBody = Type.Object(
  {
    error: Type.Literal('missing audit snapshots'),
    missing: Type.Array(Type.Enum([...BRANCHES]), { description: 'The pillars with no persisted audit for the origin, in the order wcag, privacy, ai-governance.' }),
  },
  {
    description: 'A pillar has no persisted audit for the origin: no PDF.',
    examples: [{ error: 'missing audit snapshots', missing: ['privacy', 'ai-governance'] }],
  },
);

/** `svc-audit-<host>.pdf`, the host as URL spells it (punycode) with anything but [a-z0-9.-] made a dash. */
export function reportFileName(host: string): string {
  return `svc-audit-${host.replace(/[^a-z0-9.-]/g, '-')}.pdf`;
}

export function reportRoutes(deps: ReportRouteDeps) {
  const render = deps.render ?? renderReportPdf;
  const clock = deps.clock ?? (() => new Date());
  // The guard is written as a preHandler; a GET has no body, so it runs as well at onRequest, first.
  const requireAdmin = deps.requireAdmin as unknown as onRequestHookHandler;

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get(
      '/api/v1/audit/report',
      {
        onRequest: requireAdmin,
        preValidation: convertQuery(ReportQuery),
        // Every answer, error or PDF, is about stored audits: never kept by a cache.
        onSend: async (_request, reply) => {
          reply.header('Cache-Control', 'no-store');
        },
        schema: {
          summary: 'One-page PDF summary of an origin',
          description:
            'Needs an admin session (the `svc_session` cookie from POST /api/v1/session). Exactly one of `domain` or `url`, ' +
            'normalised to the HTTPS origin: `example.com`, `https://example.com/path?q` and `HTTPS://Example.com:443` are the ' +
            'same origin. The newest persisted audit of each pillar (wcag, privacy, ai-governance) of that origin, whichever ' +
            'API key ran it, makes the report: per pillar `Pass: 1` only when its findings list is empty, else `Fail: 1`; ' +
            `error, warning and inconclusive counts apart; up to ${TICKETS_PER_PILLAR} open failed controls from the remediation ` +
            'tickets, errors before warnings, or `No open failed controls`. Always one A4 page.',
          querystring: ReportQuery,
          response: {
            200: {
              description: 'The PDF, as an attachment named `svc-audit-<host>.pdf`. `Cache-Control: no-store`.',
              content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
              headers: {
                'Content-Disposition': { type: 'string', description: '`attachment; filename="svc-audit-example.com.pdf"`' },
                'Cache-Control': { type: 'string', description: '`no-store`' },
              },
            },
            400: Type.Object(FieldErrorsBody.properties, {
              description: 'No target, both, or one that is empty, unparseable, not https, or carries a user name or password.',
              examples: [{ errors: { domain: 'give exactly one of domain or url' } }, { errors: { url: 'must be a host name or an https URL' } }],
            }),
            403: Type.Object(
              { error: Type.Literal('forbidden') },
              { description: 'No session, or one that is expired, disabled or not an admin’s.', examples: [{ error: 'forbidden' }] },
            ),
            404: MissingSnapshotsBody,
            500: Type.Object(ErrorBody.properties, {
              description: 'Unexpected failure (the operator log says what).',
              examples: [{ error: 'internal server error' }],
            }),
          },
        },
      },
      async (request, reply) => {
        const target = parseReportTarget(request.query);
        if (!target.ok) return reply.code(400).send(fieldErrors(target.errors));
        const selection = await selectReport(deps.db, target);
        if (!selection.ok) {
          request.log.info({ origin: target.origin, missing: selection.missing }, 'report refused: missing audit snapshots');
          return reply.code(404).send({ error: 'missing audit snapshots', missing: selection.missing });
        }
        const pdf = await render(selection.report, clock());
        return reply
          .code(200)
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', `attachment; filename="${reportFileName(target.host)}"`)
          // The 200's schema is OpenAPI binary content, which the type provider reads as a string;
          // Fastify sends a Buffer as it is, unserialised.
          .send(pdf as unknown as string);
      },
    );
  };
}
