export * from './multipart-parser';
