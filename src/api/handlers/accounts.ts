// Handlers for users, groups (teams) and roles, limited as Weblate limits them for non-admins.
import { accountByUsername, accounts, countAccounts, groupRecords, roleRecords } from '../../store/accounts.query.js';
import type { UserFilter } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import { type RequestContext, queryValue } from '../context.js';
import { notFound } from '../errors.js';
import { idOf } from '../lookup.js';
import { paginate, paginateArray } from '../pagination.js';
import { groupSerializer, roleSerializer, userSerializer } from '../serializers/accounts.js';

/** Every real user, basic record only; `?username=` (prefix) and `?id=` filter. */
export async function listUsers(ctx: RequestContext): Promise<Answer> {
  const filter: UserFilter = {};
  const username = queryValue(ctx, 'username');
  if (username) filter.username = username;
  const id = queryValue(ctx, 'id');
  if (id) filter.id = /^\d{1,15}$/.test(id) ? Number(id) : -1;
  const { store } = ctx.services;
  return json(
    await paginate(
      ctx,
      'standard',
      await store.read((tx) => countAccounts(tx, filter)),
      (slice) => store.read((tx) => accounts(tx, filter, slice)),
      (u) => userSerializer.write(u, ctx),
    ),
  );
}

export async function getUser(ctx: RequestContext): Promise<Answer> {
  const user = await ctx.services.store.read((tx) => accountByUsername(tx, ctx.params.username!));
  if (!user) throw notFound();
  return json(userSerializer.write(user, ctx));
}

function visibleGroups(ctx: RequestContext) {
  return ctx.services.store.read((tx) => groupRecords(tx, ctx.access.can('group.edit') ? undefined : ctx.user.id));
}

export async function listGroups(ctx: RequestContext): Promise<Answer> {
  return json(paginateArray(ctx, 'standard', await visibleGroups(ctx), (g) => groupSerializer.write(g, ctx)));
}

export async function getGroup(ctx: RequestContext): Promise<Answer> {
  const id = idOf(ctx);
  const group = (await visibleGroups(ctx)).find((g) => g.id === id);
  if (!group) throw notFound();
  return json(groupSerializer.write(group, ctx));
}

function visibleRoles(ctx: RequestContext) {
  return ctx.services.store.read((tx) => roleRecords(tx, ctx.access.can('role.edit') ? undefined : ctx.user.id));
}

export async function listRoles(ctx: RequestContext): Promise<Answer> {
  return json(paginateArray(ctx, 'standard', await visibleRoles(ctx), (r) => roleSerializer.write(r, ctx)));
}

export async function getRole(ctx: RequestContext): Promise<Answer> {
  const id = idOf(ctx);
  const role = (await visibleRoles(ctx)).find((r) => r.id === id);
  if (!role) throw notFound();
  return json(roleSerializer.write(role, ctx));
}
