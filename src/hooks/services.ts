// What each forge's notification says: push or not, the repository's URL forms, the branch and the repository name.
import { ValidationError } from '../domain/errors.js';

/** The services `/hooks/<service>/` accepts (forgejo is handled as gitea). */
export const SERVICES = ['github', 'gitlab', 'bitbucket', 'gitea', 'forgejo', 'gitee', 'pagure', 'azure'] as const;
export type Service = (typeof SERVICES)[number];

/** Request headers with lower-case names, as Node gives them. */
export type Headers = Record<string, string | string[] | undefined>;

/** What a push notification tells (Weblate's `service_data`, recorded in change 53's details). */
export interface HookData {
  service_long_name: string;
  repo_url: string;
  /** Every URL form the repository may be configured with. */
  repos: string[];
  /** The pushed branch without `refs/heads/`; null when the payload does not say. */
  branch: string | null;
  full_name: string;
}

/** A payload that is JSON but not the shape its service sends; the router answers 400. */
export class HookPayloadError extends ValidationError<{ field: null; service: string; reason: string }> {}

export function isService(name: string): name is Service {
  return (SERVICES as readonly string[]).includes(name);
}

/** One header's value (the first, when repeated). */
export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Walks `data` along `path`; undefined where a step is missing. */
function at(data: unknown, ...path: (string | number)[]): unknown {
  let value = data;
  for (const step of path) {
    if (typeof step === 'number' ? !Array.isArray(value) : !isObject(value)) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

function text(data: unknown, ...path: (string | number)[]): string | undefined {
  const value = at(data, ...path);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(service: string, data: unknown, ...path: (string | number)[]): string {
  const value = text(data, ...path);
  if (value === undefined) {
    const reason = `missing ${path.join('.')}`;
    throw new HookPayloadError(`Invalid data in json payload: ${reason}`, { field: null, service, reason });
  }
  return value;
}

function stripHeads(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

function unique(urls: (string | undefined)[]): string[] {
  return [...new Set(urls.filter((u): u is string => typeof u === 'string' && u !== ''))];
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

function github(headers: Headers, data: Json): HookData | null {
  if (header(headers, 'x-github-event') !== 'push') return null;
  const repo = at(data, 'repository');
  const owner = text(repo, 'owner', 'login') ?? required('github', data, 'repository', 'owner', 'name');
  const name = required('github', data, 'repository', 'name');
  const ref = required('github', data, 'ref');
  let repos: string[];
  if (text(repo, 'clone_url')) {
    const forms: string[] = [];
    for (const key of ['clone_url', 'git_url', 'ssh_url', 'svn_url', 'html_url', 'url']) {
      const url = text(repo, key);
      if (!url) continue;
      forms.push(url);
      if (url.endsWith('.git')) forms.push(url.slice(0, -4));
    }
    repos = [...new Set(forms)].sort();
  } else {
    repos = [
      'git://github.com/%s.git',
      'git://github.com/%s',
      'https://github.com/%s.git',
      'https://github.com/%s',
      'git@github.com:%s.git',
      'git@github.com:%s',
    ].map((t) => t.replace('%s', `${owner}/${name}`));
  }
  return { service_long_name: 'GitHub', repo_url: text(repo, 'url') ?? repos[0] ?? '', repos, branch: stripHeads(ref), full_name: `${owner}/${name}` };
}

function gitlab(_headers: Headers, data: Json): HookData | null {
  if (!('ref' in data)) return null;
  const ref = required('gitlab', data, 'ref');
  const repo = at(data, 'repository');
  const homepage = required('gitlab', data, 'repository', 'homepage');
  const repos = unique([text(repo, 'url'), `${homepage}.git`, text(repo, 'git_http_url'), text(repo, 'git_ssh_url'), homepage]);
  const fullName = text(data, 'project', 'path_with_namespace') ?? (text(repo, 'url') ?? '').replace(/^[^:]*:/, '').replace(/\.git$/, '');
  return { service_long_name: 'GitLab', repo_url: homepage, repos, branch: stripHeads(ref), full_name: fullName };
}

const BITBUCKET_EVENTS = new Set(['repo:push', 'repo:refs_changed', 'pullrequest:fulfilled', 'pr:merged']);
const BITBUCKET_GIT = [
  'ssh://git@{server}/{name}.git',
  'git@{server}:{name}.git',
  'https://{server}/{name}.git',
  'ssh://git@{server}/{name}',
  'git@{server}:{name}',
  'https://{server}/{name}',
];
const BITBUCKET_HG = ['https://{server}/{name}', 'ssh://hg@{server}/{name}', 'hg::ssh://hg@{server}/{name}', 'hg::https://{server}/{name}'];

function bitbucketBranch(data: Json): string | null {
  const changes = at(data, 'changes') ?? at(data, 'push', 'changes') ?? at(data, 'commits');
  if (Array.isArray(changes) && changes.length > 0) {
    const last = changes[changes.length - 1];
    const name = text(last, 'branch') ?? text(last, 'new', 'name') ?? text(last, 'old', 'name') ?? text(last, 'ref', 'displayId');
    if (name) return name;
  }
  return text(data, 'pullrequest', 'destination', 'branch', 'name') ?? text(data, 'pullRequest', 'toRef', 'displayId') ?? null;
}

function bitbucket(headers: Headers, data: Json): HookData | null {
  if ('diagnostics' in data || !BITBUCKET_EVENTS.has(header(headers, 'x-event-key') ?? '')) return null;
  const repo = at(data, 'pullRequest', 'toRef', 'repository') ?? at(data, 'repository');
  if (!isObject(repo))
    throw new HookPayloadError('Invalid data in json payload: missing repository', { field: null, service: 'bitbucket', reason: 'missing repository' });
  const owner = text(repo, 'owner') ?? text(repo, 'project', 'key');
  const fullName = text(repo, 'full_name') ?? text(repo, 'fullName') ?? (owner && text(repo, 'slug') ? `${owner}/${text(repo, 'slug')}` : undefined);
  if (!fullName)
    throw new HookPayloadError('Invalid data in json payload: no repository name', { field: null, service: 'bitbucket', reason: 'no repository name' });
  const self = at(repo, 'links', 'self');
  const repoUrl =
    text(repo, 'links', 'html', 'href') ??
    (Array.isArray(self) ? text(self, 0, 'href') : text(self, 'href')) ??
    (text(data, 'canon_url') && text(repo, 'absolute_url') ? `${text(data, 'canon_url')}${text(repo, 'absolute_url')}` : undefined);
  if (!repoUrl)
    throw new HookPayloadError('Invalid data in json payload: no repository URL', { field: null, service: 'bitbucket', reason: 'no repository URL' });
  const clone = at(repo, 'links', 'clone');
  let repos: string[];
  if (Array.isArray(clone)) {
    repos = unique(clone.map((c) => text(c, 'href')));
  } else {
    const servers = unique(['bitbucket.org', hostOf(repoUrl)]);
    const scm = text(repo, 'scm');
    const templates = scm === 'hg' ? BITBUCKET_HG : scm === undefined ? [...BITBUCKET_GIT, ...BITBUCKET_HG] : BITBUCKET_GIT;
    repos = unique(templates.flatMap((t) => servers.map((s) => t.replace('{server}', s).replace('{name}', fullName))));
  }
  return { service_long_name: 'Bitbucket', repo_url: repoUrl, repos, branch: bitbucketBranch(data), full_name: fullName };
}

/** `git@host:owner/repo.git` → `ssh://git@host/owner/repo.git` (Gitea sends the scp-like form). */
function sshVariant(url: string | undefined): string | undefined {
  const scp = url && /^([^/@:]+@[^/@:]+):(.*)$/.exec(url);
  return scp ? `ssh://${scp[1]}/${scp[2]}` : undefined;
}

function gitea(headers: Headers, data: Json, long = 'Gitea'): HookData | null {
  // Weblate treats every Gitea delivery as a push; the event header lets other events be ignored instead of failing.
  const event = header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event') ?? header(headers, 'x-gogs-event');
  if (event !== undefined && event !== 'push') return null;
  const repo = at(data, 'repository');
  const ref = required(long.toLowerCase(), data, 'ref');
  const htmlUrl = required(long.toLowerCase(), data, 'repository', 'html_url');
  const repos = unique([text(repo, 'clone_url'), text(repo, 'ssh_url'), sshVariant(text(repo, 'ssh_url')), htmlUrl]);
  return {
    service_long_name: long,
    repo_url: htmlUrl,
    repos,
    branch: stripHeads(ref),
    full_name: required(long.toLowerCase(), data, 'repository', 'full_name'),
  };
}

function gitee(headers: Headers, data: Json): HookData | null {
  const event = header(headers, 'x-gitee-event');
  if (event !== undefined && event !== 'Push Hook') return null;
  const repo = at(data, 'repository');
  const ref = required('gitee', data, 'ref');
  const htmlUrl = required('gitee', data, 'repository', 'html_url');
  const repos = unique([text(repo, 'git_http_url'), text(repo, 'git_ssh_url'), text(repo, 'git_url'), text(repo, 'ssh_url'), htmlUrl]);
  return {
    service_long_name: 'Gitee',
    repo_url: htmlUrl,
    repos,
    branch: stripHeads(ref),
    full_name: required('gitee', data, 'repository', 'path_with_namespace'),
  };
}

function pagure(_headers: Headers, data: Json): HookData | null {
  if (!isObject(data.msg) || data.topic !== 'git.receive') return null;
  const instance = required('pagure', data, 'msg', 'pagure_instance');
  const server = hostOf(instance);
  if (!server)
    throw new HookPayloadError('Invalid data in json payload: bad msg.pagure_instance', { field: null, service: 'pagure', reason: 'bad msg.pagure_instance' });
  const project = required('pagure', data, 'msg', 'project_fullname');
  const repos = [`https://${server}/${project}`, `https://${server}/${project}.git`, `ssh://git@${server}/${project}`, `ssh://git@${server}/${project}.git`];
  return { service_long_name: 'Pagure', repo_url: repos[0]!, repos, branch: text(data, 'msg', 'branch') ?? null, full_name: project };
}

const AZURE_URL = [
  /^https?:\/\/(?:[^@/]+@)?dev\.azure\.com\/([^/]+)\/([^/]+)\/_git\/([^/]+)\/?$/,
  /^https?:\/\/(?:[^@/]+@)?([^./]+)\.visualstudio\.com\/(?:DefaultCollection\/)?([^/]+)\/_git\/([^/]+)\/?$/,
];

function azure(_headers: Headers, data: Json): HookData | null {
  if (data.eventType !== 'git.push') return null;
  const repo = at(data, 'resource', 'repository');
  const remoteUrl = required('azure', data, 'resource', 'repository', 'remoteUrl');
  const branch = stripHeads(required('azure', data, 'resource', 'refUpdates', 0, 'name'));
  const project = required('azure', data, 'resource', 'repository', 'project', 'name');
  const name = required('azure', data, 'resource', 'repository', 'name');
  const organization = AZURE_URL.map((re) => re.exec(remoteUrl)?.[1]).find(Boolean);
  let repos = [remoteUrl];
  if (organization) {
    const forms = (p: string, r: string) => [
      `https://dev.azure.com/${organization}/${p}/_git/${r}`,
      `git@ssh.dev.azure.com:v3/${organization}/${p}/${r}`,
      `https://${organization}.visualstudio.com/${p}/_git/${r}`,
      `${organization}@vs-ssh.visualstudio.com:v3/${organization}/${p}/${r}`,
    ];
    const projectId = text(repo, 'project', 'id');
    const repoId = text(repo, 'id');
    repos = unique([
      ...forms(project, name),
      projectId && repoId ? `https://dev.azure.com/${organization}/${projectId}/_git/${repoId}` : undefined,
      ...forms(encodeURIComponent(project), encodeURIComponent(name)),
      remoteUrl,
    ]);
  }
  return { service_long_name: 'Azure', repo_url: remoteUrl, repos, branch, full_name: name };
}

const HANDLERS: Record<Service, (headers: Headers, data: Json) => HookData | null> = {
  github,
  gitlab,
  bitbucket,
  gitea: (h, d) => gitea(h, d, 'Gitea'),
  forgejo: (h, d) => gitea(h, d, 'Forgejo'),
  gitee,
  pagure,
  azure,
};

/**
 * Reads a service's payload: the push's data, or null for a ping or an event that is not a push.
 * Throws HookPayloadError when the payload lacks what a push must carry.
 * @example parseHook('github', { 'x-github-event': 'push' }, payload)?.branch // 'main'
 */
export function parseHook(service: Service, headers: Headers, data: unknown): HookData | null {
  if (!isObject(data)) throw new HookPayloadError('Invalid data in json payload!', { field: null, service, reason: 'not a JSON object' });
  return HANDLERS[service](headers, data);
}

/** The delivery's unique id, from the headers each service sends (or the body where it carries one). */
export function deliveryId(service: Service, headers: Headers, data: unknown): string | undefined {
  const names: Record<Service, string[]> = {
    github: ['x-github-delivery'],
    // X-Gitlab-Webhook-UUID names the webhook, not the delivery, so it is no id on its own
    gitlab: ['idempotency-key', 'x-gitlab-event-uuid'],
    bitbucket: ['x-request-uuid', 'x-request-id'],
    gitea: ['x-gitea-delivery', 'x-forgejo-delivery', 'x-gogs-delivery'],
    forgejo: ['x-forgejo-delivery', 'x-gitea-delivery'],
    gitee: ['x-gitee-delivery'],
    pagure: ['x-pagure-delivery'],
    azure: [],
  };
  for (const name of names[service]) {
    const value = header(headers, name);
    if (value) return value;
  }
  if (service === 'pagure') return text(data, 'msg_id');
  if (service === 'azure') return text(data, 'id') ?? text(data, 'notificationId');
  return undefined;
}
