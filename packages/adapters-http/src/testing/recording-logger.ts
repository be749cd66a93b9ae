export { RecordingLogger, type LogEntry } from '@uas/domain/testing';
