import type { ProjectEvent } from './events.js';
import { assertNever, type Decider } from './decider.js';
import { DEFAULT_PLAN, type PlanName } from './plans.js';

export type ProjectCommand = { type: 'ChangePlan'; plan: PlanName; monthlyQuota: number | null };
export type ProjectState = { plan: PlanName; monthlyQuota: number | null };

export const projectDecider: Decider<ProjectCommand, ProjectState, ProjectEvent> = {
  initialState: () => ({ plan: DEFAULT_PLAN, monthlyQuota: null }),

  decide(command, state) {
    switch (command.type) {
      case 'ChangePlan':
        if (command.plan === state.plan && command.monthlyQuota === state.monthlyQuota) return [];
        return [{ type: 'PlanChanged', data: { plan: command.plan, monthlyQuota: command.monthlyQuota } }];
      default:
        return assertNever(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'PlanChanged':
        return { ...event.data };
      default:
        return assertNever(event.type);
    }
  },
};
