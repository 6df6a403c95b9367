// Package http is the service's HTTP edge, on Fiber: the server and its
// bounds (NewApp), the route table that mounts the read and write sides'
// routes (read.Routes, write.Routes) behind what each route's access asks
// for (API keys, rate limits per client IP and per account, the failed-key
// guard, input checks, result clamps per plan, CORS), the one error path
// ({"error": "..."} with the right status), the pages for people (/docs,
// /map, /dashboard), the OpenAPI document (openapi/, served at
// /v1/openapi.json) and /metrics. It imports no store: the application
// hands it the stores as the interfaces the sides declare.
package http
