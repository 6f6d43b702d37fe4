// Starts Swagger UI on this server's OpenAPI document. A file of its own rather than an inline
// script, so that the page keeps the server's Content-Security-Policy (script-src 'self').
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
