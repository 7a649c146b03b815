import { META_KEYS, NOTIFICATIONS } from "../../constants/index.js";
import { PROFILES } from "../../protocol/profiles.js";
import { LIST_CHANGED, type Change } from "../../stores/change-feed.js";
import type { JsonObject } from "../../types/types.js";
import type { StatelessHandlerContext } from "./stateless-context.js";
import type { StatelessHost } from "./stateless-requests.js";
import { withFields } from "../../types/objects.js";

/** What a listen request asks to hear of. */
interface NotificationFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  taskIds?: readonly string[];
}

const ignore = (): undefined => undefined;

/** The list kinds, in the order an acknowledgement names them. */
const LISTS = ["tools", "prompts", "resources"] as const;

/** The part of what was asked that this server can honour: kinds of change it has (its capabilities say which). */
function honoured(host: StatelessHost, asked: NotificationFilter): NotificationFilter {
  const capabilities = host.capabilitiesFor(PROFILES["2026-07-28"]);
  const filter: NotificationFilter = {};
  for (const kind of LISTS) if (asked[`${kind}ListChanged`] && capabilities[kind]) filter[`${kind}ListChanged`] = true;
  if (asked.resourceSubscriptions && capabilities.resources) filter.resourceSubscriptions = [...new Set(asked.resourceSubscriptions)];
  return filter;
}

/** The notification a change becomes on a stream with this filter, if it asked for it. */
function notificationOf(
  change: Exclude<Change, { kind: "task" }>,
  filter: NotificationFilter,
): { method: string; params: JsonObject } | undefined {
  if (change.kind === "resource")
    return filter.resourceSubscriptions?.includes(change.uri)
      ? { method: NOTIFICATIONS.resourcesUpdated, params: { uri: change.uri } }
      : undefined;
  return filter[`${change.list}ListChanged`] ? { method: LIST_CHANGED[change.list], params: {} } : undefined;
}

/**
 * `subscriptions/listen`: the acknowledgement first (with the honoured filter), then each requested
 * change as it happens, every message tagged with the listen request's id. Ends without an answer
 * when the client leaves (its signal), with a result when the server closes.
 */
export function serveListen(host: StatelessHost, params: JsonObject, context: StatelessHandlerContext): Promise<JsonObject> {
  if (context.signal.aborted) return Promise.reject(context.signal.reason as Error);
  const tag = { [META_KEYS.subscriptionId]: context.requestId };
  const asked: NotificationFilter = params["notifications"] ?? {};
  const filter = honoured(host, asked);
  const send = (method: string, body: JsonObject): void => {
    context.channel.notify(method, withFields(body, { _meta: tag })).catch(ignore);
  };
  const acknowledge = (): void => send(NOTIFICATIONS.subscriptionsAcknowledged, { notifications: filter });
  // Which tasks it may hear of is the `tasks` option's to say (the caller's own): the acknowledgement waits for it.
  const watching = asked.taskIds ? host.options.tasks?.watch?.(asked.taskIds, context) : undefined;
  const acknowledged = watching?.then((watcher) => {
    filter.taskIds = watcher.taskIds;
    acknowledge();
    return watcher;
  });
  if (!acknowledged) acknowledge();
  // Subscribed at once: a task that changes while the ids are checked is told of after the acknowledgement.
  const unsubscribe = host.changes.subscribe((change) => {
    if (change.kind === "task") {
      void acknowledged?.then((watcher) => watcher.changed(change.taskId)).then((task) => task && send(NOTIFICATIONS.tasks, task), ignore);
      return;
    }
    const notification = notificationOf(change, filter);
    if (!notification) return;
    // Never before the acknowledgement, which may still wait for the task ids to be checked.
    if (acknowledged) void acknowledged.then(() => send(notification.method, notification.params), ignore);
    else send(notification.method, notification.params);
  });
  return new Promise((resolve, reject) => {
    const end = (): void => {
      unsubscribe();
      context.signal.removeEventListener("abort", cancelled);
      host.closing.removeEventListener("abort", closed);
    };
    const cancelled = (): void => {
      end();
      reject(context.signal.reason);
    };
    const closed = (): void => {
      end();
      resolve({ _meta: tag });
    };
    acknowledged?.catch((error: unknown) => {
      end();
      reject(error);
    });
    // The server may have closed before the stream opened.
    if (host.closing.aborted) return closed();
    context.signal.addEventListener("abort", cancelled);
    host.closing.addEventListener("abort", closed);
  });
}
