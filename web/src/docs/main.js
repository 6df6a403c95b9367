// /docs: the service's own OpenAPI document (/v1/openapi.json) rendered by
// Swagger UI: every operation with its parameters (their examples filled
// in for "Try it out"), request bodies and responses with examples. "Try
// it out" sends the key entered in the page header as X-API-Key (the
// ApiKeyHeader scheme, preauthorized), so a tried call answers as it will
// for the user's plan. Everything comes from this origin: no validator
// badge, no CDN.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js';
import { apiKey, mountHeader, status } from '../common/api.js';

// authorize makes Swagger UI send key in X-API-Key ('' logs it out).
function authorize(ui, key) {
  if (key) {
    ui.preauthorizeApiKey('ApiKeyHeader', key);
    status('Try it out sends your key in X-API-Key.');
  } else {
    const authorized = ui.authSelectors.authorized();
    if (authorized && authorized.get('ApiKeyHeader')) ui.authActions.logout(['ApiKeyHeader']);
    status('Enter an API key above to try the keyed operations.');
  }
}

const ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#app',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  defaultModelExpandDepth: 2,
  displayOperationId: true,
  displayRequestDuration: true,
  filter: true,
  showCommonExtensions: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
  // No call to the public validator service: the page talks to its own
  // origin only.
  validatorUrl: null,
  // The key of the page header wins over a stale one in Swagger UI's own
  // Authorize dialog.
  requestInterceptor: (req) => {
    const key = apiKey();
    if (key && !req.headers.Authorization) req.headers['X-API-Key'] = key;
    return req;
  },
  onComplete: () => authorize(ui, apiKey()),
});
window.overwatchDocs = ui; // for the browser test and the curious
mountHeader('docs', (key) => authorize(ui, key));
