// The `same` check's exceptions: strings that are usually left as they are (codes, URLs, numbers, names).
import { FORMAT_SYNTAXES } from './format.js';

// tms's own list of words that read the same in most languages (lower case).
const INTERNATIONAL = new Set(
  `ok id url urls uri email e-mail pdf html xml json csv yaml http https ftp ssh ssl tls api gpl mit bsd linux unix
  windows macos mac os android ios gnu qt kde gnome usb wifi wi-fi bluetooth dns ip ipv4 ipv6 tcp udp cpu gpu ram rom
  png jpg jpeg gif svg bmp mp3 mp4 utf-8 utf ascii unicode sql sqlite mysql git github gitlab www com org net
  px pt em kb mb gb tb kib mib gib hz khz mhz ghz ms min max vs etc admin root sha1 sha256 md5 aes rsa totp hotp
  yubikey keepass keepassxc firefox chrome chromium safari edge opera tor vpn sftp webdav smtp imap pop3 ldap
  oauth saml sso pin`.split(/\s+/),
);

const EMAIL = /[a-z0-9_.-]+@[a-z0-9_.-]+\.[a-z0-9-]{2,}/gi;
const URL = /(?:http|ftp)s?:\/\/\S+/gi;
const HASHTAG = /#[A-Za-z0-9_-]*/g;
const DOMAIN = /(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+(?:[A-Z]{2,6}\.?|[A-Z0-9-]{2,}\.?)/gi;
const PATH = /(^|[ ])(\/[a-zA-Z0-9=:?._-]+)+/g;
const TEMPLATE = /\{[a-z_-]+\}|@[A-Z_]@/g;
const TAGS = /<[^>]*>/g;
const SPLIT = /(?:&(?:nbsp|rsaquo|lt|gt|amp|ldquo|rdquo|times|quot);|[() ,.^`"'\\/_<>!?;:|{}*@%#&~=+\r\n✓—‑…[\]0-9-])+/;

const isUpper = (s: string) => s !== s.toLowerCase() && s === s.toUpperCase();
const trimNumberChars = (s: string) => s.replace(/^[0-9:/,.]+|[0-9:/,.]+$/g, '');

/** Whether the source is of the kind that is normally left untranslated. */
function ignorable(source: string, formatFlags: readonly string[]): boolean {
  const lower = source.toLowerCase();
  if (trimNumberChars(source).length <= 1 || lower.includes('(c) copyright') || source.includes('©')) return true;
  let stripped = lower.replace(TAGS, '');
  for (const id of formatFlags) {
    const syntax = FORMAT_SYNTAXES[id];
    if (syntax) stripped = stripped.replace(new RegExp(syntax.regex.source, 'g'), '');
  }
  stripped = stripped.replace(EMAIL, '').replace(URL, '').replace(HASHTAG, '').replace(DOMAIN, '').replace(PATH, '').replace(TEMPLATE, '');
  if (stripped.length <= 1) return true;
  for (const word of stripped.split(SPLIT)) {
    if (word.length > 2 && !INTERNATIONAL.has(word)) return false;
  }
  return true;
}

/** `same`: the translation equals the source and the source is not one of the usual exceptions. */
export function sameCheck(source: string, target: string, strict: boolean, formatFlags: readonly string[]): boolean {
  if (source !== target) return false;
  if (strict) return source !== '';
  if (source.length <= 1) return false;
  if (isUpper(source)) return false;
  return !ignorable(source, formatFlags);
}
