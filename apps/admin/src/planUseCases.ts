import { ConflictError, PLANS, projectDecider, streamNames, type PlanName, type ProjectState } from '@pubstream/domain';
import type { KeyStore } from '@pubstream/read-model';
import { beforeCommit } from './beforeCommit.js';
import type { CommandHandler } from './commandHandler.js';
import type { WriteCommand } from './writeCommand.js';
import type { WriteOptions, Written } from './writeOutcome.js';

/** Typed by its schema in adminSchemas.ts (the OpenAPI document's). */
import type { PlanView } from './adminSchemas.js';

export type { PlanView };

const planView = (plan: PlanName, monthlyQuota: number | null): PlanView => {
  const { defaultRateLimit, maxRateLimit, reactive, maxStreamsPerKey } = PLANS[plan];
  return { plan, monthlyQuota, limits: { defaultRateLimit, maxRateLimit, reactive, maxStreamsPerKey } };
};

/** The project's plan, from its stream (the log, not the read model). */
export const createCurrentPlan =
  (commands: Pick<CommandHandler, 'load'>) =>
  (): Promise<ProjectState> =>
    commands.load(projectDecider, streamNames.project);

/** The 409 of a downgrade below the rate limit of existing keys: it names (up to five of) them. */
export const keysAboveMaximum = (keys: readonly { name: string; rateLimit: number }[], plan: PlanName): ConflictError | null => {
  const maxRateLimit = PLANS[plan].maxRateLimit;
  const tooHigh = keys.filter((key) => key.rateLimit > maxRateLimit);
  if (tooHigh.length === 0) return null;
  const names = tooHigh
    .slice(0, 5)
    .map((key) => key.name)
    .join(', ');
  return new ConflictError(`${tooHigh.length} key(s) have a rate limit above the ${plan} plan's maximum of ${maxRateLimit} (${names}); lower them first`);
};

export interface PlanUseCaseDeps {
  readonly currentPlan: () => Promise<ProjectState>;
  readonly write: WriteCommand;
  readonly keys: Pick<KeyStore, 'listKeys'>;
}

/** The plan: read from the log, changed through the decider. */
export const createPlanUseCases = (deps: PlanUseCaseDeps) => ({
  async getPlan(): Promise<PlanView> {
    const state = await deps.currentPlan();
    return planView(state.plan, state.monthlyQuota);
  },

  /**
   * Changes the plan. Keys configured above the new plan's maximum must be lowered first (409):
   * a downgrade never silently changes what existing keys allow. That check reads the keys
   * from the read model before the write (503 when it is unreachable).
   */
  async setPlan(input: { plan: PlanName; monthlyQuota?: number | null }, options: WriteOptions<PlanView> = {}): Promise<Written<PlanView>> {
    const refused = keysAboveMaximum(await beforeCommit('reading the keys', () => deps.keys.listKeys()), input.plan);
    if (refused) throw refused;
    return deps.write(
      projectDecider,
      streamNames.project,
      (state) => ({ type: 'ChangePlan', plan: input.plan, monthlyQuota: input.monthlyQuota === undefined ? state.monthlyQuota : input.monthlyQuota }),
      options,
      (decided) => ({ value: planView(decided.state.plan, decided.state.monthlyQuota), created: false }),
    );
  },
});
