#!/usr/bin/env node
// A small but real MCP server over stdio: tools with progress and structured output, a resource
// template with completions, a prompt, and logging. Desktop hosts launch it as a child process
// (see examples/README.md); `npm run demo` drives it with MCPClient.
import * as z from "zod";
import { MCPServer } from "@suaveplan/mcp/server";
import { serveStdio } from "@suaveplan/mcp/node";

const CITIES = { lyon: 21, oslo: 4, lima: 18, lagos: 31, london: 12 };
const known = (city) => Object.hasOwn(CITIES, city.toLowerCase());
const celsiusIn = (city) => CITIES[city.toLowerCase()];
const citiesStartingWith = (typed) => Object.keys(CITIES).filter((city) => city.startsWith(typed.toLowerCase()));

const server = new MCPServer(
  { name: "weather-example", version: "1.0.0", title: "Weather (example)" },
  { instructions: "Temperatures are in degrees Celsius. Cities: " + Object.keys(CITIES).join(", ") },
);

server.tool(
  "forecast",
  {
    title: "Forecast",
    description: "Daily forecast for a city, one day at a time (reports progress).",
    inputSchema: z.object({ city: z.string().describe("City name"), days: z.number().int().min(1).max(7).default(3) }),
    outputSchema: z.object({ city: z.string(), days: z.array(z.object({ day: z.number().int(), celsius: z.number() })) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ city, days }, ctx) => {
    if (!known(city)) return { content: [{ type: "text", text: `No data for ${city}` }], isError: true };
    const forecast = [];
    for (let day = 1; day <= days; day++) {
      ctx.signal.throwIfAborted();
      forecast.push({ day, celsius: celsiusIn(city) + ((day * 7) % 5) - 2 });
      await ctx.progress(day, days, `day ${day} of ${days}`);
    }
    await ctx.log("info", { tool: "forecast", city, days }, "weather");
    const text = forecast.map(({ day, celsius }) => `day ${day}: ${celsius}°C`).join(", ");
    return { content: [{ type: "text", text: `${city}: ${text}` }], structuredContent: { city, days: forecast } };
  },
);

server.tool(
  "to_fahrenheit",
  {
    description: "Converts degrees Celsius to Fahrenheit.",
    inputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    outputSchema: { type: "object", properties: { fahrenheit: { type: "number" } }, required: ["fahrenheit"] },
  },
  ({ celsius }) => ({ content: [], structuredContent: { fahrenheit: Math.round((celsius * 9) / 5 + 32) } }),
);

server.resourceTemplate(
  "today",
  "weather://cities/{city}/today",
  {
    title: "Today's weather",
    mimeType: "application/json",
    list: () =>
      Object.keys(CITIES).map((city) => ({ uri: `weather://cities/${city}/today`, name: `${city} today`, mimeType: "application/json" })),
    complete: { city: citiesStartingWith },
  },
  (uri, { city }) => {
    if (!known(String(city))) throw new Error(`No data for ${String(city)}`);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ city, celsius: celsiusIn(String(city)) }) }] };
  },
);

server.prompt(
  "plan-trip",
  {
    title: "Plan a trip",
    description: "Asks the model to plan a trip around the weather.",
    arguments: {
      city: { description: "Where to", required: true, complete: citiesStartingWith },
      days: { description: "How many days", complete: (typed) => ["1", "2", "3", "5", "7"].filter((d) => d.startsWith(typed)) },
    },
  },
  ({ city, days = "3" }) => ({
    description: `A ${days}-day trip to ${city}`,
    messages: [
      { role: "user", content: { type: "text", text: `Plan a ${days}-day trip to ${city}. Check the forecast tool first.` } },
      { role: "user", content: { type: "resource_link", uri: `weather://cities/${city.toLowerCase()}/today`, name: `${city} today` } },
    ],
  }),
);

const session = await serveStdio(server);
console.error(`weather-example: serving on stdio (pid ${process.pid})`);
await session.finished;
