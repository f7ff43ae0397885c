import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [index("routes/visitor.tsx"), route("places", "routes/places.tsx")] satisfies RouteConfig;
