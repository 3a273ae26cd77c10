// The webhook layer's public surface: receivers, payload parsing, signatures, matching and the update queue.
export { createDeliveryLog, createStoredDeliveryLog, type DeliveryLog, finishingRequests, resumeRequestedUpdates } from './deliveries.js';
export { type ComponentTarget, type MatchResult, type MatchStatus, matchComponents, type NearMiss, trackedBranch } from './match.js';
export { decodePayload } from './payload.js';
export { createUpdateQueue, type EnqueueOutcome, type UpdateFn, type UpdateQueue, type UpdateQueueOptions } from './queue.js';
export { normalizeFullName, normalizeRepoUrl } from './repo-url.js';
export { createHookHandler, type HookHandlerOptions } from './router.js';
export { deliveryId, type HookData, HookPayloadError, isService, parseHook, SERVICES, type Service } from './services.js';
export { checkSignature, safeEqual, type SignatureResult } from './signature.js';
export { type ComponentUpdate, type ComponentUpdaterOptions, createComponentUpdater, type PullFn, pullOrScan } from './updater.js';
