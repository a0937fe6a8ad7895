export { collectionRecord, itemRecord, keyRecord, type ContractOptions, type ReadModelContractOptions } from './contractFixtures.js';
export { testKeyStoreContract } from './keyStoreContract.js';
export { testProjectionStoreContract } from './projectionStoreContract.js';
export { testReadModelContract } from './readModelContract.js';
export { testUsageStoreContract } from './usageStoreContract.js';
export { testStoresContract } from './storesContract.js';
export { createNaiveReadModel, type NaiveReadModel } from './naiveReadModel.js';
export { testChangeHistoryContract, type ChangeHistorySubject } from './changeHistoryContract.js';
