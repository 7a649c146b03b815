// Layers around notifications, each way, on either side: what comes from the peer before this side
// acts on it, what this side sends before it goes out. Chains are composed per method when the layers
// change; a notification's own way on (sending it, or this side's handling of it) travels in its
// context, so one chain serves every connection of a server.
import { NOTIFICATIONS, type NotificationMethod } from "../constants/index.js";
import type {
  CancelledNotificationParams,
  ElicitationCompleteNotificationParams,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  ResourceUpdatedNotificationParams,
  SubscriptionsAcknowledgedNotificationParams,
  TaskStatusNotificationParams,
  TasksNotificationParams,
} from "../schemas/schemas.js";
import type { JsonObject } from "../types/types.js";
import { MethodLayers, type MiddlewareRequest, type NextHandler } from "./chain.js";

/** The notifications of MCP, either way, with their params (one missing here would not compile). */
export type NotificationMethods = { [M in NotificationMethod]: ParamsByMethod[M] };

interface ParamsByMethod {
  "notifications/initialized": JsonObject | undefined;
  "notifications/cancelled": CancelledNotificationParams;
  "notifications/progress": ProgressNotificationParams;
  "notifications/message": LoggingMessageNotificationParams;
  "notifications/resources/updated": ResourceUpdatedNotificationParams;
  "notifications/resources/list_changed": JsonObject | undefined;
  "notifications/tools/list_changed": JsonObject | undefined;
  "notifications/prompts/list_changed": JsonObject | undefined;
  "notifications/roots/list_changed": JsonObject | undefined;
  "notifications/elicitation/complete": ElicitationCompleteNotificationParams;
  "notifications/tasks/status": TaskStatusNotificationParams;
  "notifications/tasks": TasksNotificationParams;
  "notifications/subscriptions/acknowledged": SubscriptionsAcknowledgedNotificationParams;
}

/** Where a notification is going: `"incoming"` came from the peer, `"outgoing"` is this side's. */
export interface NotificationLayerContext {
  readonly era: "session" | "stateless";
  readonly direction: "incoming" | "outgoing";
}

/** One notification, typed by its method (a union over the methods when `M` is several). */
export type LayeredNotification<M extends NotificationMethod = NotificationMethod> = {
  [K in M]: MiddlewareRequest<K, NotificationMethods[K]>;
}[M];

/** What passes a notification on: its way (sent, or handled here), or a layer in front of it. */
export type NotificationNext<M extends NotificationMethod = NotificationMethod> = (
  notification: LayeredNotification<M>,
  context: NotificationLayerContext,
) => void | Promise<void>;

/**
 * A notification layer: `(next) => (notification, context) => …`. It may pass the notification on
 * with other params, drop it (not call `next`), or watch it. The method stays the one it came with.
 */
export type NotificationMiddleware<M extends NotificationMethod = NotificationMethod> = (next: NotificationNext<M>) => NotificationNext<M>;

/** A notification's own way on, after the layers: its params as the layers left them. */
export type NotificationWay = (params: JsonObject | undefined) => unknown;

/** Read by the chain's base; a context a layer spreads into another keeps it. */
const WAY: unique symbol = /* @__PURE__ */ Symbol("way");

interface Passing extends NotificationLayerContext {
  readonly [WAY]: NotificationWay;
}

const onItsWay: NextHandler<NotificationLayerContext> = (notification, context) =>
  (context as Passing)[WAY](notification.params as JsonObject | undefined);

/** A side's notification layers (`useNotifications`): a layer names one of MCP's notifications, or none (all of them). */
export function notificationLayers(): MethodLayers<NotificationLayerContext> {
  return new MethodLayers(new Set(Object.values(NOTIFICATIONS)), "notification", "notifications are");
}

/** `params` of `method` through the layers that see it, then on its `way`; settles when the chain did. */
export function passNotification(
  layers: MethodLayers<NotificationLayerContext>,
  era: NotificationLayerContext["era"],
  direction: NotificationLayerContext["direction"],
  method: string,
  params: JsonObject | undefined,
  way: NotificationWay,
): Promise<unknown> {
  const context: Passing = { era, direction, [WAY]: way };
  return layers.run({ method, params }, context, onItsWay);
}
