// OpenAPI for the dashboard's routes: these are pages, so every answer is documented as HTML or a
// redirect, under the `dashboard` tag. Who may open a page (common/guard.ts) decides its answers:
// a viewer page (admins and members) has no 403, an admin page answers a member's session with one.
import { Type } from 'typebox';
import { RETRY_AFTER_HEADER, withHeaders } from '../../http/openapi.ts';

export const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

export const redirect = (description: string) => ({
  description,
  headers: { Location: { type: 'string', description: 'Where the browser goes next.' } },
});

export const COMMON_PAGES = {
  400: html('The form or query could not be read (a field too long, repeated or of the wrong kind).'),
  500: html('Unexpected server failure; the operator log says why.'),
  503: withHeaders(
    html('The database could not be reached or did not answer within its bound: nothing was changed; try again after Retry-After.'),
    RETRY_AFTER_HEADER,
  ),
};

/** Pages any signed-in user may open, member or admin. */
export const VIEWER_PAGES = {
  ...COMMON_PAGES,
  303: redirect('No valid session (none, expired, ended, disabled user): to /dashboard/login.'),
};

/** Pages for admins only. */
export const ADMIN_PAGES = {
  ...VIEWER_PAGES,
  403: html('A member’s session: this page is for admins (members view the overview, audits, origin histories and tickets).'),
};

/** Admin forms that change something. */
export const FORM_PAGES = {
  ...ADMIN_PAGES,
  403: html('A member’s session, or the form’s CSRF token (`_csrf`) is missing or not the session’s: nothing changed.'),
  413: html('The form body is over 8 KiB.'),
  415: html('Only application/x-www-form-urlencoded forms are accepted.'),
};

export const DASHBOARD = { tags: ['dashboard'], security: [{ adminSession: [] }] };

export const CsrfField = Type.Optional(Type.String({ maxLength: 200, description: 'The session’s CSRF token, from the page’s form.' }));
export const CsrfForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
