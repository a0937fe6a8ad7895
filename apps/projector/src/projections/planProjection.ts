import type { PlanRecord } from '@pubstream/read-model';
import { defineProjection, type ProjectedEvent, type ProjectionSpec } from './projection.js';

/** The project's plan: every PlanChanged carries the whole record, so nothing is loaded. */
export const planSpec: ProjectionSpec<PlanRecord> = {
  name: 'plan',
  handles: ['PlanChanged'],
  idOf: () => 'plan',
  creates: ['PlanChanged'],
  load: async () => new Map(),
  evolve(doc: PlanRecord | null, { event, revision }: ProjectedEvent): PlanRecord | null {
    if (event.type !== 'PlanChanged') return doc;
    return { plan: event.data.plan, monthlyQuota: event.data.monthlyQuota, version: revision };
  },
  toOp: (next) => (next ? { kind: 'plan.put', plan: next } : null),
};

export const planProjection = defineProjection(planSpec);
