// The overview's report form (/dashboard/report): the PDF GET /api/v1/audit/report gives, through
// the same steps; where that route would refuse, the overview again with the reason beside the form.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { reportFileName } from '../../http/routes/report.ts';
import { PILLAR_TITLES, renderReportPdf } from '../../report/pdf.ts';
import { parseReportTarget, selectReport } from '../../report/snapshots.ts';
import type { DashboardContext } from '../common/guard.ts';
import { DASHBOARD, html, ADMIN_PAGES } from '../common/openapi.ts';
import { page } from '../common/page.ts';
import { overviewPage, renderOverview } from '../overview/overview.ts';

const ReportQuery = Type.Object({ target: Type.String({ maxLength: 2048, description: 'A domain (example.com) or a URL on the site.' }) });

export function reportPages(app: FastifyInstance, { db, config, guard }: DashboardContext) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/report',
    {
      onRequest: guard.admin,
      schema: {
        ...DASHBOARD,
        summary: 'Download the report from the dashboard form',
        description:
          'Query `target`: a domain or a URL, read as GET /api/v1/audit/report reads `domain` and `url`. The same PDF as ' +
          'that route (attachment `svc-audit-<host>.pdf`); where it would refuse (an unreadable target, a pillar without ' +
          'an audit), the overview again with the reason beside the form, under the same status.',
        querystring: ReportQuery,
        response: {
          200: { description: 'The PDF, as GET /api/v1/audit/report sends it (attachment).', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          404: html('A pillar of the origin has no audit: the overview with the missing pillars named.'),
          ...ADMIN_PAGES,
          400: html('The target is neither a domain nor an https URL: the overview with the reason.'),
        },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const target = request.query.target.trim();
      const refused = async (status: 400 | 404, error: string) => page(reply, status, renderOverview(await overviewPage(db, config.rateLimit, session, { report: { target, error } })));
      // The same steps as GET /api/v1/audit/report; `domain` and `url` are parsed alike there.
      const parsed = parseReportTarget({ url: target });
      if (!parsed.ok) return refused(400, `Enter a domain such as example.com or an https URL: this one ${Object.values(parsed.errors)[0]}.`);
      const selection = await selectReport(db, parsed);
      if (!selection.ok) {
        const missing = selection.missing.map((branch) => PILLAR_TITLES[branch]).join(', ');
        return refused(404, `No report for ${parsed.origin} yet: it has no audit in ${missing}. Audit it in every pillar first.`);
      }
      const pdf = await renderReportPdf(selection.report, new Date());
      request.log.info({ origin: parsed.origin, userId: session.userId }, 'report downloaded from the dashboard');
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(parsed.host)}"`)
        .send(pdf);
    },
  );
}
