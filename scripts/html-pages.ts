/**
 * What a browser without a script engine reads of a server-rendered page (its POST forms, its meta
 * refresh): for the tests and the benchmark, which walk the service's sign-in pages over plain HTTP.
 */

/** An HTML form as a browser without a script engine sees it: where it posts, and what it sends as it stands. */
export interface HtmlForm {
  action: string;
  /** Its inputs' names and values as written (hidden ones included); a button's name and value only when submitted with it. */
  fields: URLSearchParams;
  /** Its submit buttons, by their text: name and value (either may be empty). */
  buttons: Map<string, { name: string; value: string }>;
}

const decodeHtml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1] ?? new RegExp(`\\s${name}=([^\\s>]+)`, 'i').exec(tag)?.[1];

/** The POST forms of a page, in order. */
export function postForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const [, open, body] of html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/gi)) {
    if ((attribute(open!, 'method') ?? 'get').toLowerCase() !== 'post') continue;
    const fields = new URLSearchParams();
    for (const [input] of body!.matchAll(/<input\b[^>]*>/gi)) {
      const name = attribute(input, 'name');
      const type = (attribute(input, 'type') ?? 'text').toLowerCase();
      if (!name || type === 'submit' || ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(input)))
        continue;
      fields.append(decodeHtml(name), decodeHtml(attribute(input, 'value') ?? ''));
    }
    const buttons = new Map<string, { name: string; value: string }>();
    // Its own buttons, and those elsewhere on the page that name it (`form="<its id>"`).
    const id = attribute(open!, 'id');
    const elsewhere = [...html.matchAll(/(<button\b[^>]*>)([\s\S]*?)<\/button>/gi)].filter(
      ([, tag]) => id !== undefined && attribute(tag!, 'form') === id,
    );
    for (const [, tag, text] of [...body!.matchAll(/(<button\b[^>]*>)([\s\S]*?)<\/button>/gi), ...elsewhere]) {
      if ((attribute(tag!, 'type') ?? 'submit').toLowerCase() !== 'submit') continue;
      const label = decodeHtml(text!.replace(/<[^>]*>/g, '').trim());
      buttons.set(label, {
        name: decodeHtml(attribute(tag!, 'name') ?? ''),
        value: decodeHtml(attribute(tag!, 'value') ?? ''),
      });
    }
    forms.push({ action: decodeHtml(attribute(open!, 'action') ?? ''), fields, buttons });
  }
  return forms;
}

/**
 * What a browser sends when the page's form is submitted (the one with a button reading `button`,
 * else the first), with `values` filled in: its address, relative to the page, and its body.
 */
export function submission(
  html: string,
  values: Record<string, string> = {},
  button?: string,
): { action: string; body: URLSearchParams } {
  const forms = postForms(html);
  const form = button ? forms.find((each) => each.buttons.has(button)) : forms[0];
  if (!form) throw new Error(`no form${button ? ` with a "${button}" button` : ''} on the page: ${html.slice(0, 300)}`);
  const body = new URLSearchParams(form.fields);
  for (const [name, value] of Object.entries(values)) body.set(name, value);
  const pressed = button ? form.buttons.get(button) : undefined;
  if (pressed?.name) body.set(pressed.name, pressed.value);
  return { action: form.action, body };
}

/** Where the page's meta refresh sends the browser at once (relative to the page), or null. */
export function refreshTarget(html: string): string | null {
  const tag = /<meta\b[^>]*http-equiv="refresh"[^>]*>/i.exec(html)?.[0];
  const content = tag ? attribute(tag, 'content') : undefined;
  const url = content ? /^\s*\d+\s*;\s*url=(.*)$/i.exec(decodeHtml(content))?.[1] : undefined;
  return url?.trim() || null;
}
