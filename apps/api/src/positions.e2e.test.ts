import { createMemoryStores } from '@pubstream/read-model';
import { describePositions } from './positions/testing/positionsSuite.js';
import { startApiHarness } from './testing/apiHarness.js';

// The embedded profile's adapter: X-Position, ?minPosition= and the changes feed over HTTP.
describePositions('memory', ({ now, resumeWindowMs, config }) => startApiHarness({ now, resumeWindowMs, config, stores: createMemoryStores({ now }) }));
