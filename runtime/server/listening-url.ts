/**
 * The URL a server listening on a host can be reached at from this machine, as the listening log
 * lines print it (docs/guide/configuration.md, `APP_HTTP__HOST`).
 */

/**
 * `http://<host>:<port>` for a server listening on `host`: a wildcard (`0.0.0.0`, `::`) is
 * reached on loopback (`127.0.0.1`, `[::1]`), and an IPv6 address is bracketed, as a URL must
 * write it (`http://:::3000` was printed for `::`, which no client parses).
 */
export function listeningUrl(host: string, port: number): string {
  const reached = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${String(port)}`;
}
