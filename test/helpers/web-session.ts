// Signing in to the web interface as a browser does: the sign-in form's CSRF cookie, then the session cookie.

/** A signed-in browser: the cookies to send, and the CSRF token its forms carry. */
export interface WebSession {
  cookie: string;
  csrf: string;
}

/**
 * Signs `username` in through the sign-in form of the server at `origin`; throws when the form refuses.
 * @example const s = await webSignIn(server.url, 'jane', 'jane-password-1'); fetch(url, { headers: { Cookie: s.cookie } })
 */
export async function webSignIn(origin: string, username: string, password: string): Promise<WebSession> {
  const form = await fetch(`${origin}/accounts/login/`);
  const token = /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
  const signed = await fetch(`${origin}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: `tms_csrf=${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfmiddlewaretoken: token, username, password, next: '/' }),
  });
  const cookies = signed.headers.getSetCookie();
  const session = cookies.find((c) => c.startsWith('tms_session='));
  if (!session) throw new Error(`${username} could not sign in: ${signed.status}`);
  const csrf = /tms_csrf=([^;]+)/.exec(cookies.join('\n'))![1]!;
  return { cookie: `${session.split(';')[0]}; tms_csrf=${csrf}`, csrf };
}
