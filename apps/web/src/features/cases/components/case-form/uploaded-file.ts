/**
 * A file a draft's upload already holds on the server (docs/decisions/case-form.md § Drafts): it stands
 * in the form's field by name, with no bytes in the browser, and is submitted by its id.
 */
export class UploadedFile extends File {
  readonly uploadId: string;
  /** The upload's size; `size` is 0, as the bytes stay on the server. */
  readonly uploadedSize: number;

  constructor(uploadId: string, name: string, uploadedSize: number) {
    super([], name);
    this.uploadId = uploadId;
    this.uploadedSize = uploadedSize;
  }
}
