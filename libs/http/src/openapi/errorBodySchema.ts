import { z } from 'zod';

/** Every error of both APIs (docs/security.md, one error middleware): the status name and one wording per failure. */
export const errorBodySchema = z
  .object({
    error: z.string().meta({ description: 'The status name', example: 'Bad Request' }),
    message: z.string().meta({ description: 'What went wrong, for a person', example: 'Invalid dataId format' }),
  })
  .meta({ id: 'Error', description: 'Every error answer: `{error, message}`.' });

export type ErrorBody = z.output<typeof errorBodySchema>;
