/**
 * The GraphQL playground (docs/behaviour.md §4.1, §4.5): `GET /graphql` serves GraphiQL when
 * `APP_GRAPHQL__PLAYGROUND=true`, from npm-installed assets (graphiql's UMD build, React 18's UMD
 * builds) — never a CDN, so it works on a machine with no internet. Queries go over HTTP to the same
 * path and subscriptions over graphql-ws; a `?token=` in the page URL pre-fills the bearer header
 * and the `connection_init` payload.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express } from 'express';

const require = createRequire(import.meta.url);

const ASSETS: Readonly<Record<string, string>> = {
  'react.js': path.join(path.dirname(require.resolve('react/package.json')), 'umd/react.production.min.js'),
  'react-dom.js': path.join(path.dirname(require.resolve('react-dom/package.json')), 'umd/react-dom.production.min.js'),
  'graphiql.js': path.join(path.dirname(require.resolve('graphiql/package.json')), 'graphiql.min.js'),
  'graphiql.css': path.join(path.dirname(require.resolve('graphiql/package.json')), 'graphiql.min.css'),
};

function page(base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>GraphiQL — Resource Service</title>
  <link rel="stylesheet" href="${base}/assets/graphiql.css">
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql">Loading…</div>
  <script src="${base}/assets/react.js"></script>
  <script src="${base}/assets/react-dom.js"></script>
  <script src="${base}/assets/graphiql.js"></script>
  <script src="${base}/assets/init.js"></script>
</body>
</html>
`;
}

function init(base: string): string {
  return `(function () {
  var token = new URLSearchParams(window.location.search).get('token');
  var headers = token ? { Authorization: 'Bearer ' + token } : {};
  var url = window.location.origin + ${JSON.stringify(base)};
  var fetcher = GraphiQL.createFetcher({
    url: url,
    subscriptionUrl: url.replace(/^http/, 'ws'),
    wsConnectionParams: headers,
  });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultHeaders: JSON.stringify(headers, null, 2),
      defaultQuery: '{\\n  users(first: 5) {\\n    id\\n    name\\n  }\\n}\\n',
    }),
  );
})();
`;
}

/** Serves the playground on `GET <path>` and its assets under `<path>/assets`. */
export function mountPlayground(app: Express, graphqlPath: string): void {
  app.get(graphqlPath, (_request, response) => {
    response.type('html').send(page(graphqlPath));
  });
  app.get(`${graphqlPath}/assets/init.js`, (_request, response) => {
    response.type('application/javascript').send(init(graphqlPath));
  });
  for (const [name, file] of Object.entries(ASSETS)) {
    app.get(`${graphqlPath}/assets/${name}`, (_request, response) => {
      response.sendFile(file, { maxAge: '1h' });
    });
  }
}
