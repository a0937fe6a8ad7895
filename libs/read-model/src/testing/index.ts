export { testReadModelContract, itemRecord, collectionRecord, type ReadModelContractOptions } from './readModelContract.js';
export { createNaiveReadModel, type NaiveReadModel } from './naiveReadModel.js';
