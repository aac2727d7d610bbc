import { CUSTOM_ROUTE_ARGS_METADATA, INTERCEPTORS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RouteEntry } from '../auth/route-table';
import { TemplateFormInterceptor } from '../http/template-form.interceptor';
import { DATA_JSON, FORM_READER, FormReaderInfo, MultipartJsonPipe } from '../validation/multipart-json';

/** What the document says a route reads, from its parameter decorators (what its pipes validate). */
export interface RouteInputs {
  /** A JSON body validated against this class. */
  jsonBody?: Function;
  /** A multipart form whose `data_json` field is validated against this class. */
  form?: { dataClass: Function; field: string; fileParts: string[]; jsonAlso: boolean };
  /** `@Query() dto` classes, and single `@Query('name')` fields. */
  queryClasses: Function[];
  queryNames: string[];
}

type Args = Record<string, { index: number; data?: unknown; pipes?: unknown[] }>;

const isClass = (value: unknown): value is Function => typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));

/** The DTO class a pipe validates against (`new SomePipe(Dto)` keeps it as `cls`). */
function pipeClass(pipes: unknown[] = []): Function | undefined {
  for (const pipe of pipes) {
    const cls = (pipe as { cls?: unknown } | null)?.cls;
    if (isClass(cls)) return cls;
  }
  return undefined;
}

export function routeInputs(route: RouteEntry): RouteInputs {
  const handler = route.controller.prototype[route.methodName];
  const args: Args = Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.methodName) ?? {};
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', route.controller.prototype, route.methodName) ?? [];
  const interceptors: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
  const templateForm = interceptors.includes(TemplateFormInterceptor);
  // Other form readers name their file parts in a static `formFileParts`.
  const formReader = interceptors.find((i): i is { formFileParts: string[] } => Array.isArray((i as { formFileParts?: unknown })?.formFileParts));
  const inputs: RouteInputs = { queryClasses: [], queryNames: [] };
  for (const [key, arg] of Object.entries(args)) {
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
      const pipes = arg.pipes ?? [];
      const json = pipes.find((p): p is MultipartJsonPipe<object> => p instanceof MultipartJsonPipe) as any;
      if (json) {
        // A form interceptor lists its file parts (`static FILE_PARTS`); the template form's is the default.
        const listed = interceptors.map((i) => (i as { FILE_PARTS?: string[] }).FILE_PARTS).find(Array.isArray);
        const fileParts = listed ?? (templateForm ? ['template_file'] : (formReader?.formFileParts ?? []));
        inputs.form = { dataClass: json.cls, field: json.field ?? DATA_JSON, fileParts, jsonAlso: !listed };
      } else {
        const reader = pipes.find((p) => typeof p === 'function' && FORM_READER in p) as { [FORM_READER]: FormReaderInfo } | undefined;
        if (reader && isClass(arg.data)) inputs.form = { dataClass: arg.data, field: DATA_JSON, ...reader[FORM_READER] };
      }
      continue;
    }
    const type = Number(key.split(':')[0]);
    if (type === RouteParamtypes.BODY) {
      const cls = pipeClass(arg.pipes) ?? types[arg.index];
      if (isClass(cls) && cls !== Object) inputs.jsonBody = cls;
    } else if (type === RouteParamtypes.QUERY) {
      if (typeof arg.data === 'string') inputs.queryNames.push(arg.data);
      else if (isClass(types[arg.index]) && types[arg.index] !== Object) inputs.queryClasses.push(types[arg.index] as Function);
    }
  }
  return inputs;
}
