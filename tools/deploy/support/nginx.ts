/**
 * Just enough of nginx to check the gateway's routing offline: a parser for
 * the configuration syntax and nginx's location selection (exact `=`, longest
 * prefix, `^~`, then regular expressions in order), with URI normalisation
 * (percent-decoding, merged slashes, dot segments) done first as nginx does.
 */
export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
  line: number;
}

export function parseNginx(text: string): Directive[] {
  const tokens: { value: string; line: number; quoted: boolean }[] = [];
  let line = 1;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ value: c, line, quoted: false });
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
        } else {
          if (text[j] === '\n') line++;
          value += text[j++];
        }
      }
      if (j >= text.length) throw new Error(`nginx: unterminated string at line ${line}`);
      tokens.push({ value, line, quoted: true });
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s;{}]/.test(text[j])) j++;
      tokens.push({ value: text.slice(i, j), line, quoted: false });
      i = j;
    }
  }
  let position = 0;
  const block = (nested: boolean): Directive[] => {
    const directives: Directive[] = [];
    while (position < tokens.length) {
      const token = tokens[position];
      if (!token.quoted && token.value === '}') {
        if (!nested) throw new Error(`nginx: unexpected } at line ${token.line}`);
        position++;
        return directives;
      }
      const words: string[] = [];
      while (
        position < tokens.length &&
        (tokens[position].quoted || !['{', '}', ';'].includes(tokens[position].value))
      ) {
        words.push(tokens[position++].value);
      }
      const end = tokens[position++];
      if (!end || end.value === '}')
        throw new Error(`nginx: missing ; after "${words.join(' ')}" at line ${token.line}`);
      const directive: Directive = { name: words[0], args: words.slice(1), line: token.line };
      if (end.value === '{') directive.block = block(true);
      directives.push(directive);
    }
    if (nested) throw new Error('nginx: missing }');
    return directives;
  };
  return block(false);
}

export function find(directives: Directive[] | undefined, name: string): Directive[] {
  return (directives ?? []).filter((d) => d.name === name);
}

/** The `http { server { … } }` blocks listening on `port`. */
export function serversOn(config: Directive[], port: number): Directive[] {
  return find(find(config, 'http')[0]?.block, 'server').filter((server) =>
    find(server.block, 'listen').some((listen) => new RegExp(`(^|:)${port}$`).test(listen.args[0])),
  );
}

/** nginx's URI normalisation before location matching; undefined for a URI nginx refuses (400). */
export function normalizeUri(raw: string): string | undefined {
  let path = raw.split('?')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return `/${out.join('/')}${path.endsWith('/') && out.length > 0 ? '/' : ''}`;
}

export interface LocationMatch {
  location: Directive;
  /** `return <code>` of the location, if any. */
  returns?: number;
  /** Upstream name of `proxy_pass http://<name>`, if any. */
  upstream?: string;
  /** URI the upstream receives (after `rewrite … break`). */
  upstreamUri?: string;
}

/** Which location of `server` serves `rawUri`, and what it does with it. */
export function matchLocation(server: Directive, rawUri: string): LocationMatch | undefined {
  const uri = normalizeUri(rawUri);
  if (uri === undefined) return undefined;
  const locations = find(server.block, 'location').filter((l) => !l.args[0].startsWith('@'));
  let chosen: Directive | undefined = locations.find((l) => l.args[0] === '=' && l.args[1] === uri);
  if (!chosen) {
    const prefixes = locations
      .filter((l) => l.args.length === 1 || l.args[0] === '^~')
      .map((l) => ({ l, prefix: l.args[l.args.length - 1] }))
      .filter(({ prefix }) => uri.startsWith(prefix))
      .sort((a, b) => b.prefix.length - a.prefix.length);
    const longest = prefixes[0];
    if (longest?.l.args[0] === '^~') chosen = longest.l;
    else {
      chosen =
        locations.find(
          (l) =>
            (l.args[0] === '~' || l.args[0] === '~*') &&
            new RegExp(l.args[1], l.args[0] === '~*' ? 'i' : '').test(uri),
        ) ?? longest?.l;
    }
  }
  if (!chosen) return undefined;
  const result: LocationMatch = { location: chosen };
  const ret = find(chosen.block, 'return')[0];
  if (ret) result.returns = Number(ret.args[0]);
  const proxy = find(chosen.block, 'proxy_pass')[0];
  if (proxy) {
    const target = /^https?:\/\/([^/$]+)(.*)$/.exec(proxy.args[0]);
    if (!target) throw new Error(`unsupported proxy_pass ${proxy.args[0]} (line ${proxy.line})`);
    if (target[2])
      throw new Error(`proxy_pass with a URI part changes paths; use rewrite (line ${proxy.line})`);
    result.upstream = target[1];
    result.upstreamUri = uri;
    for (const rewrite of find(chosen.block, 'rewrite')) {
      const match = new RegExp(rewrite.args[0]).exec(result.upstreamUri);
      if (match) {
        result.upstreamUri = rewrite.args[1].replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? '');
        if (rewrite.args[2] === 'break') break;
      }
    }
  }
  return result;
}

/** `upstream <name> { server <host>:<port> … }` → host:port of each server. */
export function upstreams(config: Directive[]): Map<string, string[]> {
  return new Map(
    find(find(config, 'http')[0]?.block, 'upstream').map((u) => [
      u.args[0],
      find(u.block, 'server').map((s) => s.args[0]),
    ]),
  );
}
